#!/usr/bin/python
# Copyright 2026 The pending-tempest-plugin Authors.
#
#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.
"""Ansible module: seed the embedded cloud through its public APIs."""

DOCUMENTATION = r'''
module: seed_cloud
short_description: Seed the embedded cloud, once per input, for tempest.conf
description:
  - Creates, as the admin, what is missing of the member persona (a
    non-admin user with the C(member) role in a project of its own), the
    flavors, the images (1 MiB raw, public), the member's network and
    subnet, the default external network and subnet and the default
    subnet pool (get-me-a-network), then reads what tempest.conf needs
    from the cloud (I(facts)).
  - Fails when neutron did not create the admin project's default
    security group (two workers creating it at once race on a fresh cloud).
  - Runs once per distinct input; the result is stored in I(cache) under
    the sha256 of every option (passwords included, and I(nova_source_id)
    since nova's maximum microversion goes into tempest.conf) and of the
    module's version, and replayed, with nothing called, while those are
    unchanged.
  - Runs on the cloud's host under the tools virtualenv's python
    (C(ansible_python_interpreter)), which has openstacksdk.
  - Check mode calls nothing; a run that would call the cloud is changed
    and returns the stored result, if any.
options:
  auth_url: {description: Keystone's v3 endpoint., type: str,
             required: true}
  admin_password: {description: Password of Keystone's admin user.,
                   type: str, required: true, no_log: true}
  region: {description: The cloud's region., type: str, required: true}
  member_project: {description: Project of the member persona., type: str,
                   required: true}
  member_user: {description: User name of the member persona., type: str,
                required: true}
  member_password: {description: Password of the member persona.,
                    type: str, required: true, no_log: true}
  member_network:
    description: The member's network (its subnet is <network>-subnet).
    type: str
    required: true
  member_cidr: {description: The member subnet's CIDR., type: str,
                required: true}
  external_network:
    description: The default external network (flat, on physical network
      public).
    type: str
    required: true
  external_cidr: {description: The external subnet's CIDR (no DHCP).,
                  type: str, required: true}
  default_subnetpool: {description: The default subnet pool (shared).,
                       type: str, required: true}
  default_subnetpool_prefix: {description: Its prefix (/26 allocations).,
                              type: str, required: true}
  flavors:
    description: "Flavors ({id, name, vcpus, ram, disk}), each made when its
      id is missing."
    type: list
    elements: dict
    required: true
  images:
    description: "Names of the images, two: image_ref and image_ref_alt."
    type: list
    elements: str
    required: true
  data_dir: {description: Where an image's file is written before its
             upload., type: path, required: true}
  nova_source_id: {description: Which nova runs (part of the cache key
                   only)., type: str, default: ''}
  cache: {description: Where the result is stored (mode 0600)., type: path,
          required: true}
'''

EXAMPLES = r'''
- name: seed | member persona, flavors, images and network
  pending.aio.seed_cloud:
    cache: "{{ aio_data }}/cache/seed.out"
    nova_source_id: "{{ aio_nova_source_id }}"
    auth_url: "{{ aio_keystone_url }}"
    admin_password: "{{ aio_admin_password }}"
    region: "{{ aio_region }}"
    member_project: "{{ aio_member_project }}"
    member_user: "{{ aio_member_user }}"
    member_password: "{{ aio_member_password }}"
    member_network: "{{ aio_member_network }}"
    member_cidr: "{{ aio_member_cidr }}"
    external_network: "{{ aio_external_network }}"
    external_cidr: "{{ aio_external_cidr }}"
    default_subnetpool: "{{ aio_default_subnetpool }}"
    default_subnetpool_prefix: "{{ aio_default_subnetpool_prefix }}"
    flavors: "{{ aio_flavors }}"
    images: "{{ aio_images }}"
    data_dir: "{{ aio_data }}"
  vars:
    ansible_python_interpreter: "{{ aio_tools_venv }}/bin/python"
  register: _seed
  no_log: true

- name: seed | facts for tempest.conf
  ansible.builtin.set_fact:
    seed: "{{ _seed.facts }}"
'''

RETURN = r'''
created:
  description: What was created (C(project), C(flavor aio.nano),
    C(image aio-tiny)...); empty when nothing was.
  type: list
  elements: str
  returned: always
facts:
  description: >-
    What tempest.conf reads from the cloud: image_ref, image_ref_alt,
    min_microversion, max_microversion, network_extensions,
    volume_min_microversion, volume_max_microversion, member_network_id,
    member_project_id.  Empty in check mode before any run.
  type: dict
  returned: always
cached: {description: Whether the stored result was replayed (no call).,
         type: bool, returned: always}
'''

import json  # noqa: E402
import os  # noqa: E402

try:
    from ansible.module_utils.basic import AnsibleModule
except ImportError:  # the unit tests run without Ansible
    AnsibleModule = None

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_cache)

# Part of the cache key: a change of this module's logic that should seed
# again on a built cloud bumps it (the module's text is not hashed, unlike
# the script it replaced).
VERSION = '1'

# The options that are inputs of the seed (all but the cache).
INPUTS = ('auth_url', 'admin_password', 'region', 'member_project',
          'member_user', 'member_password', 'member_network', 'member_cidr',
          'external_network', 'external_cidr', 'default_subnetpool',
          'default_subnetpool_prefix', 'flavors', 'images', 'data_dir',
          'nova_source_id')


class SeedError(Exception):
    pass


def connect(spec):
    """An openstacksdk connection, as admin of the admin project."""
    try:
        import openstack
    except ImportError as exc:
        raise SeedError(
            'seed_cloud needs openstacksdk in the interpreter that runs it '
            '(the tools virtualenv: set ansible_python_interpreter): %s'
            % exc)
    return openstack.connect(
        auth_url=spec['auth_url'], username='admin',
        password=spec['admin_password'], project_name='admin',
        user_domain_name='Default', project_domain_name='Default',
        region_name=spec['region'], compute_api_version='2.1')


def seed(conn, spec):
    """Create what is missing; return (what was created, the facts)."""
    created = []

    # The member persona: a non-admin user in a project of its own.
    project = conn.identity.find_project(spec['member_project'],
                                         domain_id='default')
    if project is None:
        project = conn.identity.create_project(
            name=spec['member_project'], domain_id='default',
            description='embedded cloud: non-admin persona')
        created.append('project')
    user = conn.identity.find_user(spec['member_user'], domain_id='default')
    if user is None:
        user = conn.identity.create_user(
            name=spec['member_user'], domain_id='default',
            password=spec['member_password'],
            default_project_id=project.id)
        created.append('user')
    role = conn.identity.find_role('member')
    if not conn.identity.validate_user_has_project_role(project, user, role):
        conn.identity.assign_project_role_to_user(project, user, role)
        created.append('role')

    for flavor in spec['flavors']:
        if conn.compute.find_flavor(flavor['id']) is None:
            conn.compute.create_flavor(**flavor)
            created.append('flavor %s' % flavor['name'])

    images = []
    for name in spec['images']:
        image = conn.image.find_image(name)
        if image is None:
            path = os.path.join(spec['data_dir'], name + '.img')
            with open(path, 'wb') as f:
                f.truncate(1024 * 1024)
            image = conn.image.create_image(
                name=name, filename=path, disk_format='raw',
                container_format='bare', visibility='public',
                wait=True, timeout=120)
            created.append('image %s' % name)
        images.append(image.id)

    net = conn.network.find_network(spec['member_network'],
                                    project_id=project.id)
    if net is None:
        net = conn.network.create_network(
            name=spec['member_network'], project_id=project.id)
        created.append('network')
    if not list(conn.network.subnets(network_id=net.id)):
        conn.network.create_subnet(
            name=spec['member_network'] + '-subnet', network_id=net.id,
            project_id=project.id, ip_version=4,
            cidr=spec['member_cidr'])
        created.append('subnet')

    # Get-me-a-network: a default external network and a default subnet
    # pool (admin's, shared), from which Neutron's auto_allocate plugin
    # makes a project's network, subnet and router on demand.
    external = conn.network.find_network(spec['external_network'])
    if external is None:
        external = conn.network.create_network(
            name=spec['external_network'], is_router_external=True,
            is_default=True, provider_network_type='flat',
            provider_physical_network='public')
        created.append('external network')
    if not list(conn.network.subnets(network_id=external.id)):
        conn.network.create_subnet(
            name=spec['external_network'] + '-subnet',
            network_id=external.id, ip_version=4, is_dhcp_enabled=False,
            cidr=spec['external_cidr'])
        created.append('external subnet')
    if conn.network.find_subnet_pool(spec['default_subnetpool']) is None:
        conn.network.create_subnet_pool(
            name=spec['default_subnetpool'], is_default=True, shared=True,
            prefixes=[spec['default_subnetpool_prefix']],
            default_prefix_length=26)
        created.append('default subnet pool')

    # Neutron creates a project's default security group on first use.
    # Tempest's credential cleanup deletes each test project's default
    # group as the admin, and neutron's delete path first ensures the
    # admin project's own default group exists: two workers doing that at
    # once on a fresh cloud race on the same primary key (the loser gets a
    # 409 SecurityGroupInUse from a rolled-back session). Create it here,
    # once, before any test runs.
    admin_project_id = conn.current_project_id
    if not list(conn.network.security_groups(project_id=admin_project_id,
                                             name='default')):
        raise SeedError('neutron did not create the default security group'
                        ' of the admin project')

    # What tempest.conf reads from the cloud instead of guessing.
    v21 = conn.compute.get('/').json()['version']
    extensions = sorted(e.alias for e in conn.network.extensions())
    v3 = conn.block_storage.get('/').json()['versions'][0]
    facts = {
        'image_ref': images[0],
        'image_ref_alt': images[1],
        'min_microversion': v21['min_version'],
        'max_microversion': v21['version'],
        'network_extensions': extensions,
        'volume_min_microversion': v3['min_version'],
        'volume_max_microversion': v3['version'],
        'member_network_id': net.id,
        'member_project_id': project.id,
    }
    return created, facts


def legacy_facts(path):
    """The facts a cloud seeded before this module stored, or {}.

    The seed was a script run by a generic module that stored a hash
    line, then the script's output, whose last line was the facts as JSON
    (with ``changed`` and ``created``).  Check mode on such a cloud shows
    them, as it did, until a real ``up`` stores this module's result.
    """
    try:
        with open(path) as f:
            output = f.read().partition('\n')[2].strip()
        facts = json.loads(output.splitlines()[-1])
    except (OSError, ValueError, IndexError):
        return {}
    if not isinstance(facts, dict):
        return {}
    return {k: v for k, v in facts.items() if k not in ('changed', 'created')}


def run(module, client=connect):
    """The module's work; ``client(params)`` makes the connection."""
    p = module.params
    key = aio_cache.inputs_key(VERSION, p, INPUTS)
    stored = aio_cache.recall(p['cache'], key)
    if stored is not None:
        module.exit_json(changed=False, cached=True,
                         created=stored.get('created', []),
                         facts=stored.get('facts', {}))
        return
    if module.check_mode:
        previous = aio_cache.stored(p['cache']) or {}
        module.exit_json(changed=True, cached=False,
                         created=previous.get('created', []),
                         facts=(previous.get('facts')
                                or legacy_facts(p['cache'])))
        return
    try:
        created, facts = seed(client(p), p)
    except SeedError as exc:
        module.fail_json(msg=str(exc))
        return
    except Exception as exc:  # openstacksdk's errors
        module.fail_json(msg='seeding the cloud failed: %s: %s'
                         % (type(exc).__name__, exc))
        return
    result = {'created': created, 'facts': facts}
    aio_cache.remember(p['cache'], key, result)
    module.exit_json(changed=bool(created), cached=False, **result)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            auth_url=dict(type='str', required=True),
            admin_password=dict(type='str', required=True, no_log=True),
            region=dict(type='str', required=True),
            member_project=dict(type='str', required=True),
            member_user=dict(type='str', required=True),
            member_password=dict(type='str', required=True, no_log=True),
            member_network=dict(type='str', required=True),
            member_cidr=dict(type='str', required=True),
            external_network=dict(type='str', required=True),
            external_cidr=dict(type='str', required=True),
            default_subnetpool=dict(type='str', required=True),
            default_subnetpool_prefix=dict(type='str', required=True),
            flavors=dict(type='list', elements='dict', required=True),
            images=dict(type='list', elements='str', required=True),
            data_dir=dict(type='path', required=True),
            nova_source_id=dict(type='str', default=''),
            cache=dict(type='path', required=True)),
        supports_check_mode=True)
    run(module)


if __name__ == '__main__':
    main()
