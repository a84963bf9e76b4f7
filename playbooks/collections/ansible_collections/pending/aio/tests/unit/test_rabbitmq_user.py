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
"""pending.aio.rabbitmq_user: once per user and password, never in argv."""

import os

from backend_fakes import BackendTestCase

from ansible_collections.pending.aio.plugins.module_utils import (
    aio_backends)
from ansible_collections.pending.aio.plugins.modules import rabbitmq_user

PW = 'rabbit-s3cret'
CTL = ['rabbitmqctl', '-q', '-n', 'rabbit@localhost']
ENV = {'RABBITMQ_CONF_ENV_FILE': '/etc/aio/rabbitmq/rabbitmq-env.conf',
       'ERL_EPMD_PORT': 4369}
WRITES = ('add_user', 'change_password', 'set_permissions')


class TestRabbitmqUser(BackendTestCase):

    def setUp(self):
        super().setUp()
        self.cache = os.path.join(self.tmp, 'rabbitmq', 'aio-openstack-user')

    def user(self, users='guest\t[administrator]\n', password=PW,
             check=False):
        run = self.fake([(['list_users'], users, 0)])
        result = aio_backends.rabbitmq_user(self.cache, 'openstack',
                                            password, env=ENV, check=check)
        return run, result

    def writes(self, run):
        return [c for c in run.calls if set(WRITES) & set(c[0])]

    def test_a_new_user_is_added_password_on_stdin(self):
        run, (changed, details, cached) = self.user()
        self.assertTrue(changed)
        self.assertFalse(cached)
        self.assertEqual({'created': True}, details)
        self.assertEqual(
            [(CTL + ['add_user', 'openstack'], PW + '\n'),
             (CTL + ['set_permissions', 'openstack', '.*', '.*', '.*'], '')],
            [(argv, data) for argv, data, _ in self.writes(run)])
        self.assertNotInArgv(PW, run)

    def test_an_existing_user_gets_its_password_set(self):
        run, (changed, details, _) = self.user(
            'guest\t[administrator]\nopenstack\t[]\n')
        # Setting the password counts as a change.
        self.assertTrue(changed)
        self.assertEqual({'created': False}, details)
        self.assertEqual(CTL + ['change_password', 'openstack'],
                         self.writes(run)[0][0])
        self.assertEqual(PW + '\n', self.writes(run)[0][1])
        self.assertNotInArgv(PW, run)

    def test_a_user_whose_name_only_starts_alike_is_another(self):
        run, (_, details, _) = self.user('openstack2\t[]\n')
        self.assertEqual({'created': True}, details)

    def test_the_node_environment_reaches_every_call(self):
        run, _ = self.user()
        for _, _, env in run.calls:
            self.assertEqual('4369', env['ERL_EPMD_PORT'])
            self.assertEqual(ENV['RABBITMQ_CONF_ENV_FILE'],
                             env['RABBITMQ_CONF_ENV_FILE'])
            self.assertIn('PATH', env)

    def test_remembered_runs_nothing_and_is_not_changed(self):
        self.user()
        run, (changed, details, cached) = self.user()
        self.assertFalse(changed)
        self.assertTrue(cached)
        self.assertEqual({'created': True}, details)
        self.assertEqual([], run.calls)

    def test_a_new_password_runs_again(self):
        self.user()
        run, (changed, _, cached) = self.user(password='another-one')
        self.assertTrue(changed)
        self.assertFalse(cached)
        self.assertEqual(2, len(self.writes(run)))

    def test_the_cache_holds_no_password(self):
        self.user()
        with open(self.cache) as f:
            self.assertNotIn(PW, f.read())
        self.assertEqual(0o600, os.stat(self.cache).st_mode & 0o777)

    def test_a_cache_of_another_format_means_run_again(self):
        os.makedirs(os.path.dirname(self.cache))
        with open(self.cache, 'w') as f:
            f.write('0' * 64 + '\nCHANGED\n')   # pending.aio.cached's
        run, (changed, _, cached) = self.user()
        self.assertTrue(changed)
        self.assertFalse(cached)

    def test_check_mode_writes_nothing_and_remembers_nothing(self):
        run, (changed, _, cached) = self.user(check=True)
        self.assertTrue(changed)
        self.assertEqual([], self.writes(run))
        self.assertFalse(os.path.exists(self.cache))
        self.assertNotInArgv(PW, run)

    def test_a_failure_hides_the_password(self):
        self.fake([(['list_users'], '', 0),
                   (['add_user'], '', 2, 'Error: bad password %s' % PW)])
        exc = self.assertRaises(aio_backends.BackendError,
                                aio_backends.rabbitmq_user, self.cache,
                                'openstack', PW, env=ENV)
        self.assertIn('add_user', str(exc))
        self.assertNotIn(PW, str(exc))
        self.assertFalse(os.path.exists(self.cache))

    def test_the_password_option_is_no_log(self):
        self.assertTrue(rabbitmq_user.ARGUMENT_SPEC['password']['no_log'])

    def test_the_module_documents_its_options(self):
        self.assertDocumentsItsOptions(rabbitmq_user)
