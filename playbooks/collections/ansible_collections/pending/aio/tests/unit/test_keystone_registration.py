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
"""The keystone_registration module, with Keystone's client faked.

The module runs once per distinct input (its result stored in a cache
file): a hit calls nothing and is not changed; a miss registers what is
missing and is changed only when it created or updated something; check
mode calls nothing.
"""

import itertools
import os
import stat
import sys
from unittest import mock

import fixtures
from oslotest import base

from ansible_collections.pending.aio.plugins.modules import (
    keystone_registration as mod)


class Obj(object):
    def __init__(self, **attrs):
        self.__dict__.update(attrs)


class FakeKeystone(object):
    """The parts of keystoneclient.v3's Client the module uses."""

    def __init__(self):
        self.ids = itertools.count(1)
        self.writes = []
        self.state = {'projects': [], 'users': [], 'services': [],
                      'endpoints': [], 'limits': [], 'grants': set(),
                      'roles': [self.new(name=n) for n in
                                ('admin', 'member', 'reader')]}
        ks = self

        class Manager(object):
            def __init__(self, kind):
                self.kind = kind

            def list(self, **filters):
                items = ks.state[self.kind]
                for attr in ('service', 'region'):
                    if attr in filters:
                        items = [i for i in items
                                 if getattr(i, attr) == filters[attr]]
                return list(items)

        class Projects(Manager):
            def create(self, name, domain):
                return ks.add('projects', name=name)

        class Roles(Manager):
            def create(self, name):
                return ks.add('roles', name=name)

            def grant(self, role, user, project=None, system=None):
                ks.writes.append(('grant', role.name, user.name))
                ks.state['grants'].add((role.id, user.id,
                                        project.id if project else system))

        class Users(Manager):
            def create(self, name, domain, password):
                return ks.add('users', name=name, password=password)

        class Assignments(object):
            def list(self, user, project=None, system=None):
                scope = project.id if project else system
                return [Obj(role={'id': r})
                        for r, u, s in ks.state['grants']
                        if u == user.id and s == scope]

        class Services(Manager):
            def create(self, name, type):
                return ks.add('services', name=name, type=type)

        class Endpoints(Manager):
            def create(self, service, url, interface, region):
                return ks.add('endpoints', service=service, url=url,
                              interface=interface, region=region)

            def update(self, endpoint, url):
                ks.writes.append(('update endpoint', endpoint.id))
                endpoint.url = url

        class Limits(Manager):
            def create(self, service, resource, value, region):
                return ks.add('limits', service=service, region=region,
                              resource_name=resource, default_limit=value)

            def update(self, limit, default_limit):
                ks.writes.append(('update limit', limit.id))
                limit.default_limit = default_limit

        self.projects = Projects('projects')
        self.roles = Roles('roles')
        self.users = Users('users')
        self.role_assignments = Assignments()
        self.services = Services('services')
        self.endpoints = Endpoints('endpoints')
        self.registered_limits = Limits('limits')

    def new(self, **attrs):
        return Obj(id='id-%d' % next(self.ids), **attrs)

    def add(self, kind, **attrs):
        item = self.new(**attrs)
        self.state[kind].append(item)
        self.writes.append(('create', kind, attrs.get('name')))
        return item


class FakeModule(object):

    def __init__(self, check_mode=False, **params):
        self.check_mode = check_mode
        self.params = params
        self.result = None
        self.failed = None

    def exit_json(self, **result):
        self.result = result

    def fail_json(self, **result):
        self.failed = result


SERVICES = [
    {'user': 'placement', 'name': 'placement', 'type': 'placement',
     'url': 'http://127.0.0.1:8778'},
    {'user': 'nova', 'name': 'nova', 'type': 'compute',
     'url': 'http://127.0.0.1:8774/v2.1'},
]


class KeystoneRegistrationTestCase(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.cache = os.path.join(self.useFixture(fixtures.TempDir()).path,
                                  'cache', 'register.out')
        self.keystone = FakeKeystone()
        self.client = mock.Mock(return_value=self.keystone)

    def params(self, **overrides):
        params = dict(
            cache=self.cache, auth_url='http://127.0.0.1:5000/v3',
            admin_password='admin-secret', service_password='svc-secret',
            region='RegionOne', services=SERVICES, system_readers=['nova'],
            registered_limits={'compute': {'servers': 10, 'class:VCPU': 20}})
        params.update(overrides)
        return params

    def run_module(self, check_mode=False, **overrides):
        module = FakeModule(check_mode=check_mode, **self.params(**overrides))
        mod.run(module, client=self.client)
        self.assertIsNone(module.failed)
        return module.result

    def test_a_miss_registers_what_is_missing(self):
        result = self.run_module()
        self.assertTrue(result['changed'])
        self.assertFalse(result['cached'])
        self.client.assert_called_once()
        self.assertEqual(self.params(), self.client.call_args[0][0])
        registered = result['registered']
        for what in ('project service', 'role service', 'user nova',
                     'role admin for nova', 'role service for placement',
                     'service compute', 'public endpoint compute',
                     'internal endpoint placement', 'admin endpoint compute',
                     'system reader nova', 'registered limit servers',
                     'registered limit class:VCPU'):
            self.assertIn(what, registered)
        self.assertEqual(3 * 2, len(self.keystone.state['endpoints']))
        users = {u.name: u for u in self.keystone.state['users']}
        self.assertEqual('svc-secret', users['nova'].password)

    def test_a_hit_calls_nothing_and_replays(self):
        first = self.run_module()
        self.client.reset_mock()
        again = self.run_module()
        self.client.assert_not_called()
        self.assertFalse(again['changed'])
        self.assertTrue(again['cached'])
        self.assertEqual(first['registered'], again['registered'])
        self.assertEqual(0o600, stat.S_IMODE(os.stat(self.cache).st_mode))

    def test_the_cache_holds_no_password(self):
        self.run_module()
        with open(self.cache) as f:
            text = f.read()
        self.assertNotIn('admin-secret', text)
        self.assertNotIn('svc-secret', text)

    def test_every_input_is_in_the_key(self):
        self.run_module()
        for change in ({'admin_password': 'other'},
                       {'service_password': 'other'},
                       {'region': 'RegionTwo'},
                       {'services': SERVICES[:1]},
                       {'system_readers': []},
                       {'registered_limits': {}},
                       {'auth_url': 'http://127.0.0.2:5000/v3'}):
            self.client.reset_mock()
            self.run_module(**change)
            self.client.assert_called_once()
            # Back to the first input: a miss again (one result stored).
            self.run_module()

    def test_a_new_version_registers_again(self):
        self.run_module()
        self.client.reset_mock()
        with mock.patch.object(mod, 'VERSION', mod.VERSION + '-next'):
            self.run_module()
        self.client.assert_called_once()

    def test_nothing_to_create_is_not_changed(self):
        self.run_module()
        self.keystone.writes = []
        # The same cloud, another input (another cache): all there.
        result = self.run_module(admin_password='rotated')
        self.client.assert_called()
        self.assertFalse(result['changed'])
        self.assertEqual([], result['registered'])
        self.assertEqual([], self.keystone.writes)

    def test_a_changed_url_or_limit_is_updated(self):
        self.run_module()
        self.keystone.writes = []
        services = [dict(SERVICES[0], url='http://127.0.0.1:9778'),
                    SERVICES[1]]
        result = self.run_module(
            services=services,
            registered_limits={'compute': {'servers': 11, 'class:VCPU': 20}})
        self.assertTrue(result['changed'])
        self.assertEqual(['public endpoint placement',
                          'internal endpoint placement',
                          'admin endpoint placement',
                          'registered limit servers'],
                         result['registered'])
        self.assertEqual(4, len(self.keystone.writes))

    def test_check_mode_calls_nothing(self):
        result = self.run_module(check_mode=True)
        self.client.assert_not_called()
        self.assertTrue(result['changed'])
        self.assertEqual([], result['registered'])
        self.assertFalse(os.path.exists(self.cache))

    def test_check_mode_on_a_hit_is_not_changed(self):
        self.run_module()
        self.client.reset_mock()
        result = self.run_module(check_mode=True)
        self.client.assert_not_called()
        self.assertFalse(result['changed'])

    def test_check_mode_on_a_miss_returns_the_stored_result(self):
        first = self.run_module()
        self.client.reset_mock()
        result = self.run_module(check_mode=True, region='RegionTwo')
        self.client.assert_not_called()
        self.assertTrue(result['changed'])
        self.assertEqual(first['registered'], result['registered'])

    def test_a_failure_is_not_stored(self):
        self.client.side_effect = RuntimeError('Unauthorized (HTTP 401)')
        module = FakeModule(**self.params())
        mod.run(module, client=self.client)
        self.assertIn('RuntimeError: Unauthorized', module.failed['msg'])
        self.assertFalse(os.path.exists(self.cache))


class KeystoneClientTestCase(base.BaseTestCase):
    """The client libraries are imported when the module runs only."""

    SPEC = {'auth_url': 'http://k/v3', 'admin_password': 'pw',
            'region': 'RegionOne'}

    def test_missing_libraries_fail_clearly(self):
        with mock.patch.dict(sys.modules, {'keystoneclient': None,
                                           'keystoneclient.v3': None,
                                           'keystoneauth1': None}):
            exc = self.assertRaises(mod.MissingLibrary, mod.connect,
                                    self.SPEC)
        self.assertIn('python-keystoneclient', str(exc))
        self.assertIn('ansible_python_interpreter', str(exc))

    def test_missing_libraries_fail_the_module(self):
        module = FakeModule(cache='/nonexistent/register.out',
                            auth_url='http://k/v3', admin_password='pw',
                            service_password='s', region='RegionOne',
                            services=[], system_readers=[],
                            registered_limits={})
        with mock.patch.dict(sys.modules, {'keystoneclient': None,
                                           'keystoneclient.v3': None}):
            mod.run(module)
        self.assertIn('keystoneauth1 and python-keystoneclient',
                      module.failed['msg'])

    def test_the_client_is_admin_of_the_admin_project(self):
        ka, kc = mock.MagicMock(), mock.MagicMock()
        modules = {'keystoneauth1': ka,
                   'keystoneauth1.identity': ka.identity,
                   'keystoneauth1.session': ka.session,
                   'keystoneclient': kc, 'keystoneclient.v3': kc.v3,
                   'keystoneclient.v3.client': kc.v3.client}
        with mock.patch.dict(sys.modules, modules):
            client = mod.connect(self.SPEC)
        ka.identity.v3.Password.assert_called_once_with(
            auth_url='http://k/v3', username='admin', password='pw',
            project_name='admin', user_domain_id='default',
            project_domain_id='default')
        kc.v3.client.Client.assert_called_once_with(
            session=ka.session.Session.return_value, interface='public',
            region_name='RegionOne')
        self.assertIs(kc.v3.client.Client.return_value, client)
