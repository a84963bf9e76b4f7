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
"""The [nova_conformance] options: names, defaults and validation."""

from oslo_config import cfg
from oslotest import base

from pending_tempest_plugin import config as project_config


class TestConfig(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.conf = cfg.ConfigOpts()
        project_config.register_opts(self.conf)
        self.group = self.conf[project_config.GROUP_NAME]

    def test_defaults(self):
        self.assertFalse(self.group.disruptive_tests)
        self.assertIsNone(self.group.compute_stop_command)
        self.assertIsNone(self.group.compute_start_command)
        self.assertEqual(60, self.group.compute_command_timeout)
        self.assertEqual(300, self.group.service_state_timeout)
        self.assertEqual('trait', self.group.novalidhost_trigger)
        self.assertEqual('db', self.group.quota_counting)

    def test_choices_are_validated(self):
        for name, bad in (('novalidhost_trigger', 'flavor'),
                          ('quota_counting', 'nova'),
                          ('host_status_policy_profile', 'everyone')):
            self.assertRaises(ValueError, self.conf.set_override, name, bad,
                              group=project_config.GROUP_NAME)
        # The OptGroup object is shared by every ConfigOpts registering
        # it, so an override would leak into the other tests.
        self.addCleanup(self.conf.clear_override, 'quota_counting',
                        group=project_config.GROUP_NAME)
        for mode in ('db', 'placement', 'unified_limits'):
            self.conf.set_override('quota_counting', mode,
                                   group=project_config.GROUP_NAME)
            self.assertEqual(mode, self.group.quota_counting)

    def test_every_option_has_help(self):
        for _, opts in project_config.list_opts():
            for opt in opts:
                self.assertTrue(opt.help and opt.help.strip(), opt.name)

    def test_embedded_cloud_option_names_are_kept(self):
        names = {opt.name for _, opts in project_config.list_opts()
                 for opt in opts}
        kept = {'pending_state_enabled', 'pending_state_microversion',
                'cell0_rebuild_microversion', 'host_status_policy_profile'}
        self.assertEqual(set(), kept - names)
