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
"""Ansible module: service users, services and endpoints in Keystone."""

DOCUMENTATION = r'''
module: keystone_registration
short_description: Register the services in Keystone, once per input
description:
  - Creates, as Keystone's admin, the C(service) project and role, a user
    per service (roles C(admin) and C(service) in that project), each
    service and its public, internal and admin endpoints (an endpoint
    whose URL differs is updated), the system readers (role C(reader) on
    the system) and the registered limits. What exists is left alone.
  - The system readers and registered limits are what nova's unified
    limits driver needs; the other quota drivers ignore them.
  - One process instead of dozens of CLI calls, each of which pays a slow
    CLI start (measured in doc/source/data/code-timings.yaml,
    aio_openstack_register).
  - Runs once per distinct input; the result is stored in I(cache) under
    the sha256 of every option (passwords included) and of the module's
    version, and replayed, with nothing called, while those are unchanged.
  - Runs on the cloud's host under the services' virtualenv's python
    (C(ansible_python_interpreter)), which has keystoneauth1 and
    python-keystoneclient.
  - Check mode calls nothing; a run that would call Keystone is changed
    and returns the stored result, if any.
options:
  auth_url: {description: Keystone's v3 endpoint., type: str,
             required: true}
  admin_password: {description: Password of Keystone's admin user.,
                   type: str, required: true, no_log: true}
  service_password: {description: Password of every service user.,
                     type: str, required: true, no_log: true}
  region: {description: The region of every endpoint and limit., type: str,
           required: true}
  services:
    description: The services, in order.
    type: list
    elements: dict
    required: true
    suboptions:
      user: {description: Its Keystone user., type: str, required: true}
      name: {description: The service's name., type: str, required: true}
      type: {description: The service type (one service per type).,
             type: str, required: true}
      url: {description: The URL of its three endpoints., type: str,
            required: true}
  system_readers: {description: Users given the reader role on the system.,
                   type: list, elements: str, default: []}
  registered_limits:
    description: Service type -> {resource name -> default limit}.
    type: dict
    default: {}
  cache: {description: Where the result is stored (mode 0600)., type: path,
          required: true}
'''

EXAMPLES = r'''
- name: openstack | service users, services and endpoints
  pending.aio.keystone_registration:
    cache: "{{ aio_data }}/cache/register.out"
    auth_url: "{{ aio_keystone_url }}"
    admin_password: "{{ aio_admin_password }}"
    service_password: "{{ aio_service_password }}"
    region: "{{ aio_region }}"
    services:
      - {user: nova, name: nova, type: compute,
         url: "http://{{ aio_host_ip }}:8774/v2.1"}
    system_readers: [nova]
    registered_limits: {compute: {servers: 10}}
  vars:
    ansible_python_interpreter: "{{ aio_venv }}/bin/python"
  no_log: true
'''

RETURN = r'''
registered:
  description: What was created or updated (C(user nova),
    C(public endpoint compute)...); empty when nothing was.
  type: list
  elements: str
  returned: always
cached: {description: Whether the stored result was replayed (no call).,
         type: bool, returned: always}
'''


try:
    from ansible.module_utils.basic import AnsibleModule
except ImportError:  # the unit tests run without Ansible
    AnsibleModule = None

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_cache)

# Part of the cache key: a change of this module's logic that should
# register again on a built cloud bumps it (the module's text is not
# hashed, unlike the script it replaced).
VERSION = '1'

# The options that are inputs of the registration (all but the cache).
INPUTS = ('auth_url', 'admin_password', 'service_password', 'region',
          'services', 'system_readers', 'registered_limits')


class MissingLibrary(Exception):
    pass


def connect(spec):
    """A Keystone v3 client, as admin of the admin project."""
    try:
        from keystoneauth1.identity import v3
        from keystoneauth1 import session
        from keystoneclient.v3 import client
    except ImportError as exc:
        raise MissingLibrary(
            'keystone_registration needs keystoneauth1 and '
            'python-keystoneclient in the interpreter that runs it (the '
            "services' virtualenv: set ansible_python_interpreter): %s"
            % exc)
    auth = v3.Password(auth_url=spec['auth_url'], username='admin',
                       password=spec['admin_password'], project_name='admin',
                       user_domain_id='default', project_domain_id='default')
    return client.Client(session=session.Session(auth=auth),
                         interface='public', region_name=spec['region'])


def register(ks, spec):
    """Create or update what is missing; return what was (a list)."""
    changed = []

    def one(items, **attrs):
        return [i for i in items
                if all(getattr(i, k, None) == v for k, v in attrs.items())]

    project = one(ks.projects.list(domain='default'), name='service')
    if project:
        project = project[0]
    else:
        project = ks.projects.create('service', 'default')
        changed.append('project service')
    roles = {r.name: r for r in ks.roles.list()}
    if 'service' not in roles:
        roles['service'] = ks.roles.create('service')
        changed.append('role service')

    for svc in spec['services']:
        user = one(ks.users.list(domain='default'), name=svc['user'])
        if user:
            user = user[0]
        else:
            user = ks.users.create(svc['user'], domain='default',
                                   password=spec['service_password'])
            changed.append('user %s' % svc['user'])
        have = {a.role['id'] for a in ks.role_assignments.list(
            user=user, project=project)}
        for role in ('admin', 'service'):
            if roles[role].id not in have:
                ks.roles.grant(roles[role], user=user, project=project)
                changed.append('role %s for %s' % (role, svc['user']))
        service = one(ks.services.list(), type=svc['type'])
        if service:
            service = service[0]
        else:
            service = ks.services.create(svc['name'], svc['type'])
            changed.append('service %s' % svc['type'])
        endpoints = ks.endpoints.list(service=service,
                                      region=spec['region'])
        for interface in ('public', 'internal', 'admin'):
            mine = one(endpoints, interface=interface)
            if not mine:
                ks.endpoints.create(service, svc['url'], interface=interface,
                                    region=spec['region'])
                changed.append('%s endpoint %s' % (interface, svc['type']))
            elif mine[0].url != svc['url']:
                ks.endpoints.update(mine[0], url=svc['url'])
                changed.append('%s endpoint %s' % (interface, svc['type']))
    reader = one(ks.roles.list(), name='reader')[0]
    for name in spec.get('system_readers') or []:
        user = one(ks.users.list(domain='default'), name=name)[0]
        have = {a.role['id'] for a in ks.role_assignments.list(
            user=user, system='all')}
        if reader.id not in have:
            ks.roles.grant(reader, user=user, system='all')
            changed.append('system reader %s' % name)
    for service_type, limits in (spec.get('registered_limits')
                                 or {}).items():
        service = one(ks.services.list(), type=service_type)[0]
        existing = {r.resource_name: r for r in ks.registered_limits.list(
            service=service, region=spec['region'])}
        for resource, value in sorted(limits.items()):
            mine = existing.get(resource)
            if mine is None:
                ks.registered_limits.create(service, resource, int(value),
                                            region=spec['region'])
                changed.append('registered limit %s' % resource)
            elif mine.default_limit != int(value):
                ks.registered_limits.update(mine, default_limit=int(value))
                changed.append('registered limit %s' % resource)
    return changed


def run(module, client=connect):
    """The module's work; ``client(params)`` makes the Keystone client."""
    p = module.params
    key = aio_cache.inputs_key(VERSION, p, INPUTS)
    stored = aio_cache.recall(p['cache'], key)
    if stored is not None:
        module.exit_json(changed=False, cached=True,
                         registered=stored.get('registered', []))
        return
    if module.check_mode:
        previous = aio_cache.stored(p['cache']) or {}
        module.exit_json(changed=True, cached=False,
                         registered=previous.get('registered', []))
        return
    try:
        registered = register(client(p), p)
    except MissingLibrary as exc:
        module.fail_json(msg=str(exc))
        return
    except Exception as exc:  # keystoneauth1's and the client's errors
        module.fail_json(msg='keystone registration failed: %s: %s'
                         % (type(exc).__name__, exc))
        return
    result = {'registered': registered}
    aio_cache.remember(p['cache'], key, result)
    module.exit_json(changed=bool(registered), cached=False, **result)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            auth_url=dict(type='str', required=True),
            admin_password=dict(type='str', required=True, no_log=True),
            service_password=dict(type='str', required=True, no_log=True),
            region=dict(type='str', required=True),
            services=dict(
                type='list', elements='dict', required=True,
                options=dict(user=dict(type='str', required=True),
                             name=dict(type='str', required=True),
                             type=dict(type='str', required=True),
                             url=dict(type='str', required=True))),
            system_readers=dict(type='list', elements='str', default=[]),
            registered_limits=dict(type='dict', default={}),
            cache=dict(type='path', required=True)),
        supports_check_mode=True)
    run(module)


if __name__ == '__main__':
    main()
