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
"""The host_status visibility table and the verdicts built on it."""

import itertools

from oslotest import base
from tempest.lib.services.compute import base_compute_client
from tempest.lib.services.placement import base_placement_client

from pending_tempest_plugin.common import expectations as exp
from pending_tempest_plugin.common import microversions
from pending_tempest_plugin import config as project_config


class TestTable(base.BaseTestCase):

    def test_table_covers_every_combination(self):
        keys = set(itertools.product(project_config.POLICY_PROFILES,
                                     exp.PERSONAS, exp.HOST_STATUSES))
        self.assertEqual(keys, set(exp.TABLE))
        self.assertEqual(3 * 4 * 5, len(exp.TABLE))

    def test_admin_sees_every_value_in_every_profile(self):
        for profile, status in itertools.product(
                project_config.POLICY_PROFILES, exp.HOST_STATUSES):
            self.assertEqual(status, exp.expected(profile, 'admin', status))

    def test_other_project_never_sees_the_server(self):
        for profile, status in itertools.product(
                project_config.POLICY_PROFILES, exp.HOST_STATUSES):
            self.assertIs(exp.NO_ACCESS,
                          exp.expected(profile, 'other_project', status))

    def test_owner_per_profile(self):
        for persona in ('owner_member', 'owner_reader'):
            for status in exp.HOST_STATUSES:
                self.assertIs(exp.ABSENT,
                              exp.expected('admin_only', persona, status))
                self.assertEqual(status, exp.expected('admin_or_owner',
                                                      persona, status))
                want = exp.expected('unknown_only', persona, status)
                if status == 'UNKNOWN':
                    self.assertEqual('UNKNOWN', want)
                else:
                    self.assertIs(exp.ABSENT, want)

    def test_empty_string_is_a_value_not_absence(self):
        self.assertEqual('', exp.expected('admin_only', 'admin', ''))
        self.assertIsNot(exp.ABSENT, exp.expected('admin_only', 'admin', ''))

    def test_unknown_combination(self):
        self.assertRaises(ValueError, exp.expected, 'custom', 'admin', 'UP')
        self.assertRaises(ValueError, exp.expected, 'admin_only', 'admin',
                          'SLEEPY')


class TestVerdict(base.BaseTestCase):

    def test_as_expected(self):
        self.assertIsNone(exp.verdict('admin_only', 'admin', 'UP',
                                      {'host_status': 'UP'}))
        self.assertIsNone(exp.verdict('admin_only', 'owner_member', 'UP',
                                      {'id': 'x'}))
        self.assertIsNone(exp.verdict('admin_only', 'other_project', 'UP',
                                      None))
        self.assertIsNone(exp.verdict('admin_or_owner', 'owner_reader', '',
                                      {'host_status': ''}))

    def test_over_permission(self):
        self.assertEqual(
            "over-permission for persona owner_member under policy profile "
            "admin_only with the compute in DOWN: expected <absent>, got "
            "'DOWN'",
            exp.verdict('admin_only', 'owner_member', 'DOWN',
                        {'host_status': 'DOWN'}))
        # A value that happens to spell the marker is still a value.
        self.assertIn('over-permission', exp.verdict(
            'admin_only', 'owner_member', 'UP', {'host_status': 'absent'}))
        self.assertIn('over-permission', exp.verdict(
            'admin_only', 'other_project', 'UP', {'id': 'x'}))

    def test_under_permission(self):
        self.assertEqual(
            "under-permission for persona owner_reader under policy profile "
            "unknown_only with the compute in UNKNOWN: expected 'UNKNOWN', "
            "got <absent>",
            exp.verdict('unknown_only', 'owner_reader', 'UNKNOWN', {}))
        self.assertIn('under-permission', exp.verdict(
            'admin_or_owner', 'owner_member', 'UP', None))

    def test_wrong_value(self):
        self.assertEqual(
            "wrong host_status for persona admin under policy profile "
            "admin_only with the compute with no host: expected '', got "
            "'UP'",
            exp.verdict('admin_only', 'admin', '', {'host_status': 'UP'}))


class TestMicroversions(base.BaseTestCase):

    def test_previous_value_is_restored(self):
        base_compute_client.COMPUTE_MICROVERSION = '2.16'
        self.addCleanup(setattr, base_compute_client,
                        'COMPUTE_MICROVERSION', None)
        with microversions.compute():
            self.assertEqual('2.53', base_compute_client.COMPUTE_MICROVERSION)
            with microversions.placement('1.10'):
                self.assertEqual(
                    '1.10', base_placement_client.PLACEMENT_MICROVERSION)
            self.assertIsNone(base_placement_client.PLACEMENT_MICROVERSION)
        self.assertEqual('2.16', base_compute_client.COMPUTE_MICROVERSION)

    def test_restored_on_error(self):
        def fail():
            with microversions.placement():
                raise KeyError('x')
        self.assertRaises(KeyError, fail)
        self.assertIsNone(base_placement_client.PLACEMENT_MICROVERSION)
