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
"""What the functional stage plants on the embedded cloud, and removes.

``python -m pending_aio fixtures WHAT ACTION [ARGS]``, with the tools
venv's python and OS_CLIENT_CONFIG_FILE pointing at .aio/clouds.yaml:

``accounts create|remove DIR``
    pre-provisioned accounts, as a cloud that forbids creating users gives
    them: a member and a reader of one project, a member of another (the
    personas) in DIR/accounts-member.yaml, the same and the admin in
    DIR/accounts-admin.yaml (both mode 0600);
``appcred create|remove DIR``
    an application credential of the member, and DIR/clouds.yaml with two
    entries that reach Keystone through the TLS endpoint of ``tls-proxy``
    on port 5443: ``member-appcred-tls`` (with DIR/tls/ca.pem) and
    ``member-appcred-tls-no-ca``;
``leak plant|remove PREFIX``
    a server of the member named with a run's prefix (its id printed), or
    every server with that prefix deleted;
``orphan-trait TEMPEST_CONF``
    a trigger trait as nova-compute re-creates them from its provider
    cache (pending_tempest_plugin/common/novalidhost.py): the suite must
    sweep it.

Everything it creates is named ``pcacct-...`` or with the prefix given, so
``remove`` finds it again.
"""

import configparser
import os
import re
import secrets
import sys

import yaml

from pending_aio.cloud import client


def _private(path):
    """Open ``path`` for writing, readable by its owner only."""
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                             0o600), 'w')


def accounts(action, folder):
    conn = client.connect('aio-admin')
    if action == 'remove':
        for user in conn.identity.users():
            if user.name.startswith('pcacct-'):
                conn.identity.delete_user(user)
        for project in conn.identity.projects():
            if project.name.startswith('pcacct-'):
                conn.identity.delete_project(project)
        return
    names = {'a': ['member', 'reader'], 'b': ['member']}
    found = []
    for p, roles in names.items():
        project = conn.identity.create_project(name='pcacct-' + p,
                                               domain_id='default')
        for role in roles:
            password = secrets.token_hex(12)
            user = conn.identity.create_user(
                name='pcacct-%s-%s' % (p, role), password=password,
                default_project_id=project.id, domain_id='default')
            conn.identity.assign_project_role_to_user(
                project, user, conn.identity.find_role(role))
            found.append({'username': user.name, 'password': password,
                          'project_name': project.name,
                          'user_domain_name': 'Default',
                          'project_domain_name': 'Default',
                          'roles': [role]})
    with _private(os.path.join(folder, 'accounts-member.yaml')) as f:
        yaml.safe_dump(found, f)
    auth = conn.config.config['auth']
    admin = {'username': auth['username'], 'password': auth['password'],
             'project_name': auth['project_name'],
             'user_domain_name': 'Default',
             'project_domain_name': 'Default', 'roles': ['admin'],
             'types': ['admin']}
    with _private(os.path.join(folder, 'accounts-admin.yaml')) as f:
        yaml.safe_dump(found + [admin], f)


def appcred(action, folder):
    conn = client.connect('aio-member')
    user = conn.current_user_id
    for cred in conn.identity.application_credentials(user=user):
        if cred.name.startswith('pcacct-'):
            conn.identity.delete_application_credential(user, cred)
    if action == 'remove':
        return
    cred = conn.identity.create_application_credential(user, 'pcacct-member')
    entry = {'auth_type': 'v3applicationcredential',
             'auth': {'auth_url': 'https://127.0.0.1:5443/v3',
                      'application_credential_id': cred.id,
                      'application_credential_secret': cred.secret},
             'region_name': conn.config.config['region_name'],
             'identity_api_version': 3}
    clouds = {'member-appcred-tls': dict(
        entry, cacert=os.path.join(folder, 'tls', 'ca.pem')),
        'member-appcred-tls-no-ca': entry}
    with _private(os.path.join(folder, 'clouds.yaml')) as f:
        yaml.safe_dump({'clouds': clouds}, f)


def leak(action, prefix):
    conn = client.connect('aio-member')
    if action == 'plant':
        server = conn.compute.create_server(
            name=prefix + '-planted-leak', flavor_id='101',
            image_id=conn.image.find_image('aio-tiny').id, networks='none')
        print(server.id)
        return
    for server in conn.compute.servers(name='^' + prefix + '-'):
        conn.compute.delete_server(server)
        conn.compute.wait_for_delete(server, wait=120)


def orphan_trait(tempest_conf):
    conf = configparser.RawConfigParser()
    conf.read(tempest_conf)
    prefix = conf.get('DEFAULT', 'resource_name_prefix', fallback='tempest')
    trait = 'CUSTOM_%s_NOVALIDHOST_ORPHAN' % re.sub('[^A-Z0-9_]', '_',
                                                    prefix.upper())
    conn = client.connect('aio-admin')
    conn.placement.put('/traits/' + trait,
                       microversion='1.6').raise_for_status()
    print('planted', trait)


USAGE = ('usage: python -m pending_aio fixtures accounts|appcred '
         'create|remove DIR\n'
         '       python -m pending_aio fixtures leak plant|remove PREFIX\n'
         '       python -m pending_aio fixtures orphan-trait TEMPEST_CONF')


def main(argv):
    if argv[:1] == ['orphan-trait'] and len(argv) == 2:
        orphan_trait(argv[1])
        return 0
    actions = {'accounts': ('create', 'remove'),
               'appcred': ('create', 'remove'),
               'leak': ('plant', 'remove')}
    if len(argv) != 3 or argv[1] not in actions.get(argv[0], ()):
        sys.exit(USAGE)
    {'accounts': accounts, 'appcred': appcred, 'leak': leak}[argv[0]](
        argv[1], argv[2])
    return 0
