#!/usr/bin/env python3
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
"""Seed the embedded cloud through its public APIs (idempotent).

Creates the member project and user, two flavors, two images and the
member's network, then prints what tempest.conf needs as JSON on the last
line (``changed`` says whether anything was created).
"""

import json
import os
import sys

import openstack


def main():
    spec = json.load(sys.stdin)
    conn = openstack.connect(
        auth_url=spec['auth_url'], username='admin',
        password=spec['admin_password'], project_name='admin',
        user_domain_name='Default', project_domain_name='Default',
        region_name=spec['region'], compute_api_version='2.1')
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
        raise SystemExit('neutron did not create the default security group'
                         ' of the admin project')

    # What tempest.conf reads from the cloud instead of guessing.
    v21 = conn.compute.get('/').json()['version']
    extensions = sorted(e.alias for e in conn.network.extensions())
    v3 = conn.block_storage.get('/').json()['versions'][0]
    facts = {
        'changed': bool(created),
        'created': created,
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
    print(json.dumps(facts))


if __name__ == '__main__':
    main()
