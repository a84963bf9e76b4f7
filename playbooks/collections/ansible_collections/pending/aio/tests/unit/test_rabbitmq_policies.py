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
"""pending.aio.rabbitmq_policies: bounded notification queues."""

import json
import os

from backend_fakes import BackendTestCase

from ansible_collections.pending.aio.plugins.module_utils import (
    aio_backends)
from ansible_collections.pending.aio.plugins.modules import (
    rabbitmq_policies)

CTL = ['rabbitmqctl', '-q', '-n', 'rabbit@localhost']
POLICIES = [
    {'name': 'aio-nova-notifications',
     'pattern': '^versioned_notifications\\.',
     'definition': {'max-length': 1000, 'message-ttl': 3600000},
     'priority': 0},
    {'name': 'aio-notification-listeners',
     'pattern': '^.+-notifications-[0-9]+$',
     'definition': {'max-length': 10000, 'expires': 3600000}}]


def listed(policies, as_text=True):
    """list_policies --formatter json (definitions as JSON text)."""
    return json.dumps([
        {'vhost': '/', 'name': p['name'], 'pattern': p['pattern'],
         'apply-to': 'queues',
         'definition': (json.dumps(p['definition']) if as_text
                        else p['definition']),
         'priority': p.get('priority', 0)} for p in policies])


class TestRabbitmqPolicies(BackendTestCase):

    def setUp(self):
        super().setUp()
        self.cache = os.path.join(self.tmp, 'rabbitmq', 'aio-policies')

    def policies(self, have, check=False, wanted=POLICIES):
        run = self.fake([(['list_policies'], have, 0)])
        result = aio_backends.rabbitmq_policies(
            self.cache, wanted, env={'ERL_EPMD_PORT': 4369}, check=check)
        return run, result

    def writes(self, run):
        return [c[0] for c in run.calls if 'set_policy' in c[0]]

    def test_the_same_policies_write_nothing(self):
        # Definitions listed as JSON text or as objects.
        for as_text in (True, False):
            self.cache = os.path.join(self.tmp, str(as_text))
            run, (changed, details, _) = self.policies(
                listed(POLICIES, as_text))
            self.assertFalse(changed)
            self.assertEqual({'set': []}, details)
            self.assertEqual([], self.writes(run))
            self.assertEqual(CTL + ['list_policies', '--formatter', 'json'],
                             run.calls[0][0])

    def test_a_missing_or_different_policy_is_set(self):
        other = dict(POLICIES[1], definition={'max-length': 5})
        run, (changed, details, _) = self.policies(listed([other]))
        self.assertTrue(changed)
        self.assertEqual({'set': ['aio-nova-notifications',
                                  'aio-notification-listeners']}, details)
        self.assertEqual(
            [CTL + ['set_policy', '--apply-to', 'queues', '--priority', '0',
                    'aio-nova-notifications', '^versioned_notifications\\.',
                    json.dumps(POLICIES[0]['definition'])],
             CTL + ['set_policy', '--apply-to', 'queues', '--priority', '0',
                    'aio-notification-listeners',
                    '^.+-notifications-[0-9]+$',
                    json.dumps(POLICIES[1]['definition'])]],
            self.writes(run))

    def test_remembered_runs_nothing(self):
        self.policies('[]')
        run, (changed, _, cached) = self.policies('[]')
        self.assertFalse(changed)
        self.assertTrue(cached)
        self.assertEqual([], run.calls)

    def test_another_list_runs_again(self):
        self.policies('[]')
        wanted = [dict(POLICIES[0], priority=1)]
        run, (changed, _, cached) = self.policies(listed(POLICIES),
                                                  wanted=wanted)
        self.assertTrue(changed)
        self.assertFalse(cached)
        self.assertEqual(['--priority', '1'], self.writes(run)[0][7:9])

    def test_check_mode_reads_and_writes_nothing(self):
        run, (changed, details, _) = self.policies('[]', check=True)
        self.assertTrue(changed)
        self.assertEqual(2, len(details['set']))
        self.assertEqual([], self.writes(run))
        self.assertFalse(os.path.exists(self.cache))

    def test_a_pattern_read_as_an_option_fails_before_rabbitmqctl(self):
        run = self.fake([])
        exc = self.assertRaises(
            aio_backends.BackendError, aio_backends.rabbitmq_policies,
            self.cache, [dict(POLICIES[0], pattern='-x')])
        self.assertIn('aio-nova-notifications', str(exc))
        self.assertEqual([], run.calls)

    def test_the_module_documents_its_options(self):
        self.assertDocumentsItsOptions(rabbitmq_policies)
