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
"""The seed_cloud module, with openstacksdk's connection faked.

The module runs once per distinct input and nova (its result, the facts
tempest.conf reads, stored in a cache file): a hit calls nothing and is not
changed; a miss creates what is missing and is changed only when it
created something; check mode calls nothing.
"""

import json
import os
import stat
import sys
from unittest import mock

import fixtures
from oslotest import base

from ansible_collections.pending.aio.plugins.modules import (
    seed_cloud as mod)


class Obj(object):
    def __init__(self, **attrs):
        self.__dict__.update(attrs)


def fake_connection(present):
    """A connection on a cloud that has the seed (present) or nothing."""
    conn = mock.MagicMock()
    project = Obj(id='member-project')
    net = Obj(id='member-net')
    external = Obj(id='external-net')
    identity, compute, image, network = (
        conn.identity, conn.compute, conn.image, conn.network)
    identity.find_project.return_value = project if present else None
    identity.create_project.return_value = project
    identity.find_user.return_value = Obj(id='u') if present else None
    identity.create_user.return_value = Obj(id='u')
    identity.find_role.return_value = Obj(id='member')
    identity.validate_user_has_project_role.return_value = present
    compute.find_flavor.return_value = Obj(id='101') if present else None
    image.find_image.side_effect = (
        lambda name: Obj(id='image-' + name) if present else None)
    image.create_image.side_effect = (
        lambda name, **kw: Obj(id='image-' + name))
    network.find_network.side_effect = (
        lambda name, **kw: ((external if name == 'public' else net)
                            if present else None))
    network.create_network.side_effect = (
        lambda name, **kw: external if name == 'public' else net)
    network.subnets.return_value = [Obj(id='s')] if present else []
    network.find_subnet_pool.return_value = Obj(id='p') if present else None
    conn.current_project_id = 'admin-project'
    network.security_groups.return_value = [Obj(id='default')]
    compute.get.return_value.json.return_value = {
        'version': {'min_version': '2.1', 'version': '2.100'}}
    network.extensions.return_value = [Obj(alias='router'),
                                       Obj(alias='auto-allocated-topology')]
    conn.block_storage.get.return_value.json.return_value = {
        'versions': [{'min_version': '3.0', 'version': '3.71'}]}
    return conn


CREATES = ('create_project', 'create_user', 'assign_project_role_to_user',
           'create_flavor', 'create_image', 'create_network', 'create_subnet',
           'create_subnet_pool')

FACTS = {
    'image_ref': 'image-aio-tiny',
    'image_ref_alt': 'image-aio-tiny-alt',
    'min_microversion': '2.1',
    'max_microversion': '2.100',
    'network_extensions': ['auto-allocated-topology', 'router'],
    'volume_min_microversion': '3.0',
    'volume_max_microversion': '3.71',
    'member_network_id': 'member-net',
    'member_project_id': 'member-project',
}


def creations(conn):
    return [c for c in conn.mock_calls
            if c[0].split('.')[-1] in CREATES]


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


class SeedCloudTestCase(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path
        self.cache = os.path.join(self.tmp, 'cache', 'seed.out')
        self.conn = fake_connection(present=False)
        self.client = mock.Mock(side_effect=lambda p: self.conn)

    def params(self, **overrides):
        params = dict(
            cache=self.cache, nova_source_id='nova-34.0.0+series',
            auth_url='http://127.0.0.1:5000/v3',
            admin_password='admin-secret', region='RegionOne',
            member_project='aio-member', member_user='aio-member',
            member_password='member-secret', member_network='aio-net',
            member_cidr='192.0.2.0/24', external_network='public',
            external_cidr='198.51.100.0/24',
            default_subnetpool='aio-default-pool',
            default_subnetpool_prefix='203.0.113.0/24',
            flavors=[{'id': '101', 'name': 'aio.nano', 'vcpus': 1,
                      'ram': 128, 'disk': 1}],
            images=['aio-tiny', 'aio-tiny-alt'], data_dir=self.tmp)
        params.update(overrides)
        return params

    def run_module(self, check_mode=False, **overrides):
        module = FakeModule(check_mode=check_mode, **self.params(**overrides))
        mod.run(module, client=self.client)
        self.assertIsNone(module.failed)
        return module.result

    def test_a_miss_creates_what_is_missing(self):
        result = self.run_module()
        self.client.assert_called_once()
        self.assertTrue(result['changed'])
        self.assertFalse(result['cached'])
        self.assertEqual(FACTS, result['facts'])
        self.assertEqual(
            ['project', 'user', 'role', 'flavor aio.nano', 'image aio-tiny',
             'image aio-tiny-alt', 'network', 'subnet', 'external network',
             'external subnet', 'default subnet pool'], result['created'])
        self.conn.compute.create_flavor.assert_called_once_with(
            id='101', name='aio.nano', vcpus=1, ram=128, disk=1)
        self.conn.identity.create_user.assert_called_once_with(
            name='aio-member', domain_id='default',
            password='member-secret', default_project_id='member-project')
        # Each image's file, 1 MiB, in the data directory.
        self.assertEqual(1024 * 1024, os.path.getsize(
            os.path.join(self.tmp, 'aio-tiny.img')))

    def test_a_hit_calls_nothing_and_replays_the_facts(self):
        first = self.run_module()
        self.client.reset_mock()
        again = self.run_module()
        self.client.assert_not_called()
        self.assertFalse(again['changed'])
        self.assertTrue(again['cached'])
        self.assertEqual(first['facts'], again['facts'])
        self.assertEqual(0o600, stat.S_IMODE(os.stat(self.cache).st_mode))

    def test_the_cache_holds_no_password(self):
        self.run_module()
        with open(self.cache) as f:
            text = f.read()
        self.assertNotIn('admin-secret', text)
        self.assertNotIn('member-secret', text)

    def test_every_input_and_the_nova_are_in_the_key(self):
        self.run_module()
        for change in ({'nova_source_id': 'nova-35.0.0'},
                       {'admin_password': 'other'},
                       {'member_password': 'other'},
                       {'images': ['a', 'b']},
                       {'flavors': []},
                       {'member_cidr': '192.0.2.0/25'}):
            self.client.reset_mock()
            self.run_module(**change)
            self.client.assert_called_once()
            self.run_module()

    def test_a_new_version_seeds_again(self):
        self.run_module()
        self.client.reset_mock()
        with mock.patch.object(mod, 'VERSION', mod.VERSION + '-next'):
            self.run_module()
        self.client.assert_called_once()

    def test_nothing_to_create_is_not_changed(self):
        self.conn = fake_connection(present=True)
        result = self.run_module()
        self.client.assert_called_once()
        self.assertFalse(result['changed'])
        self.assertEqual([], result['created'])
        self.assertEqual([], creations(self.conn))
        self.assertEqual(FACTS, result['facts'])

    def test_check_mode_calls_nothing(self):
        result = self.run_module(check_mode=True)
        self.client.assert_not_called()
        self.assertTrue(result['changed'])
        self.assertEqual({}, result['facts'])
        self.assertFalse(os.path.exists(self.cache))

    def test_check_mode_on_a_hit_is_not_changed(self):
        self.run_module()
        self.client.reset_mock()
        result = self.run_module(check_mode=True)
        self.client.assert_not_called()
        self.assertFalse(result['changed'])
        self.assertEqual(FACTS, result['facts'])

    def test_check_mode_on_a_miss_returns_the_stored_facts(self):
        self.run_module()
        self.client.reset_mock()
        result = self.run_module(check_mode=True, nova_source_id='other')
        self.client.assert_not_called()
        self.assertTrue(result['changed'])
        self.assertEqual(FACTS, result['facts'])

    def test_check_mode_shows_the_facts_the_seed_script_stored(self):
        # A cloud seeded before this module: a hash line, then the
        # script's output, its last line the facts with changed/created.
        os.makedirs(os.path.dirname(self.cache))
        with open(self.cache, 'w') as f:
            f.write('0' * 64 + '\nseeded\n' + json.dumps(
                dict(FACTS, changed=False, created=[])) + '\n')
        result = self.run_module(check_mode=True)
        self.client.assert_not_called()
        self.assertTrue(result['changed'])
        self.assertEqual(FACTS, result['facts'])

    def test_no_default_security_group_fails_and_is_not_stored(self):
        self.conn.network.security_groups.return_value = []
        module = FakeModule(**self.params())
        mod.run(module, client=self.client)
        self.assertIn('default security group', module.failed['msg'])
        self.assertIsNone(module.result)
        self.assertFalse(os.path.exists(self.cache))


class SeedConnectionTestCase(base.BaseTestCase):
    """openstacksdk is imported when the module runs only."""

    SPEC = {'auth_url': 'http://k/v3', 'admin_password': 'pw',
            'region': 'RegionOne'}

    def test_a_missing_openstacksdk_fails_clearly(self):
        with mock.patch.dict(sys.modules, {'openstack': None}):
            exc = self.assertRaises(mod.SeedError, mod.connect, self.SPEC)
        self.assertIn('openstacksdk', str(exc))
        self.assertIn('ansible_python_interpreter', str(exc))

    def test_the_connection_is_admin_of_the_admin_project(self):
        sdk = mock.MagicMock()
        with mock.patch.dict(sys.modules, {'openstack': sdk}):
            conn = mod.connect(self.SPEC)
        sdk.connect.assert_called_once_with(
            auth_url='http://k/v3', username='admin', password='pw',
            project_name='admin', user_domain_name='Default',
            project_domain_name='Default', region_name='RegionOne',
            compute_api_version='2.1')
        self.assertIs(sdk.connect.return_value, conn)
