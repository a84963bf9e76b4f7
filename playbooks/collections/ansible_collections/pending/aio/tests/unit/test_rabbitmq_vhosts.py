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
"""pending.aio.rabbitmq_vhosts: a vhost per control plane, permissions."""

import os

from backend_fakes import BackendTestCase

from ansible_collections.pending.aio.plugins.module_utils import (
    aio_backends)
from ansible_collections.pending.aio.plugins.modules import (
    rabbitmq_vhosts)

CTL = ['rabbitmqctl', '-q', '-n', 'rabbit@localhost']
ENV = {'RABBITMQ_CONF_ENV_FILE': '/etc/rabbitmq-env.conf',
       'ERL_EPMD_PORT': '4369'}
PERMITTED = 'openstack\t.*\t.*\t.*\n'
WRITES = ('add_vhost', 'set_permissions')


class TestRabbitmqVhosts(BackendTestCase):

    def setUp(self):
        super().setUp()
        self.cache = os.path.join(self.tmp, 'rabbitmq', 'aio-plane-vhosts')

    def vhosts(self, have, permissions, check=False,
               vhosts=('nova-a', 'nova-b')):
        rules = [(['list_permissions', vhost], text, 0)
                 for vhost, text in permissions.items()]
        run = self.fake(rules + [(['list_vhosts'], have, 0)])
        result = aio_backends.rabbitmq_vhosts(
            self.cache, 'openstack', list(vhosts), env=ENV, check=check)
        return run, result

    def writes(self, run):
        return [c[0] for c in run.calls if set(WRITES) & set(c[0])]

    def test_everything_in_place_writes_nothing(self):
        run, (changed, details, cached) = self.vhosts(
            '/\nnova-a\nnova-b\n', {'nova-a': PERMITTED,
                                    'nova-b': PERMITTED})
        self.assertFalse(changed)
        self.assertFalse(cached)
        self.assertEqual({'added': [], 'permitted': []}, details)
        self.assertEqual([], self.writes(run))
        self.assertEqual(CTL + ['-s', 'list_vhosts', 'name'],
                         run.calls[0][0])
        self.assertEqual(CTL + ['-s', 'list_permissions', '-p', 'nova-a'],
                         run.calls[1][0])

    def test_a_missing_vhost_is_added_with_permissions(self):
        run, (changed, details, _) = self.vhosts(
            '/\nnova-a\n', {'nova-a': PERMITTED})
        self.assertTrue(changed)
        self.assertEqual({'added': ['nova-b'], 'permitted': ['nova-b']},
                         details)
        self.assertEqual(
            [CTL + ['add_vhost', 'nova-b'],
             CTL + ['set_permissions', '-p', 'nova-b', 'openstack', '.*',
                    '.*', '.*']], self.writes(run))

    def test_missing_permissions_are_set(self):
        run, (changed, details, _) = self.vhosts(
            '/\nnova-a\nnova-b\n', {'nova-a': PERMITTED,
                                    'nova-b': 'openstack\t\t.*\t.*\n'})
        self.assertTrue(changed)
        self.assertEqual({'added': [], 'permitted': ['nova-b']}, details)
        self.assertEqual(1, len(self.writes(run)))

    def test_remembered_runs_nothing(self):
        self.vhosts('/\n', {})
        run, (changed, _, cached) = self.vhosts('/\n', {})
        self.assertFalse(changed)
        self.assertTrue(cached)
        self.assertEqual([], run.calls)

    def test_another_list_runs_again(self):
        self.vhosts('/\n', {})
        run, (changed, details, cached) = self.vhosts(
            '/\nnova-a\nnova-b\n', {'nova-a': PERMITTED,
                                    'nova-b': PERMITTED},
            vhosts=('nova-a', 'nova-b', 'nova-c'))
        self.assertTrue(changed)
        self.assertFalse(cached)
        self.assertEqual(['nova-c'], details['added'])

    def test_check_mode_reads_and_writes_nothing(self):
        run, (changed, details, _) = self.vhosts('/\n', {}, check=True)
        self.assertTrue(changed)
        self.assertEqual(['nova-a', 'nova-b'], details['added'])
        self.assertEqual([], self.writes(run))
        self.assertFalse(os.path.exists(self.cache))

    def test_a_name_read_as_an_option_fails_before_rabbitmqctl(self):
        run = self.fake([])
        self.assertRaises(aio_backends.BackendError,
                          aio_backends.rabbitmq_vhosts, self.cache,
                          'openstack', ['--help'])
        self.assertEqual([], run.calls)

    def test_the_module_documents_its_options(self):
        self.assertDocumentsItsOptions(rabbitmq_vhosts)
