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
"""Register service users, services and endpoints in Keystone (idempotent).

Input: a JSON document on stdin::

    {"auth_url": ..., "admin_password": ..., "region": ...,
     "service_password": ...,
     "services": [{"user": "nova", "name": "nova", "type": "compute",
                   "url": "http://127.0.0.1:8774/v2.1"}, ...],
     "system_readers": ["nova"],
     "registered_limits": {"compute": {"servers": 10, ...}}}

The system readers and registered limits are what nova's unified limits
driver needs; the other quota drivers ignore them.

One process instead of dozens of CLI calls, each of which pays a slow CLI
start (measured: doc/source/data/code-timings.yaml, aio_openstack_register).
Prints CHANGED when it created or updated anything.
"""

import json
import sys

from keystoneauth1.identity import v3
from keystoneauth1 import session
from keystoneclient.v3 import client


def main():
    spec = json.load(sys.stdin)
    auth = v3.Password(auth_url=spec['auth_url'], username='admin',
                       password=spec['admin_password'], project_name='admin',
                       user_domain_id='default', project_domain_id='default')
    ks = client.Client(session=session.Session(auth=auth),
                       interface='public', region_name=spec['region'])
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
    for name in spec.get('system_readers', []):
        user = one(ks.users.list(domain='default'), name=name)[0]
        have = {a.role['id'] for a in ks.role_assignments.list(
            user=user, system='all')}
        if reader.id not in have:
            ks.roles.grant(reader, user=user, system='all')
            changed.append('system reader %s' % name)
    for service_type, limits in spec.get('registered_limits', {}).items():
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
    if changed:
        print('registered: %s' % ', '.join(changed))
        print('CHANGED')


if __name__ == '__main__':
    main()
