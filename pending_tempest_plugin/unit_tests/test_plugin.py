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

import os

from oslo_config import cfg
from oslotest import base

from pending_tempest_plugin import config as project_config
from pending_tempest_plugin import plugin


class TestPlugin(base.BaseTestCase):

    def test_load_tests_points_at_the_conformance_tests(self):
        test_dir, top_dir = plugin.PendingTempestPlugin().load_tests()
        self.assertTrue(os.path.isdir(test_dir))
        self.assertEqual(
            os.path.join(top_dir, 'pending_tempest_plugin', 'tests'),
            test_dir)
        # Unit tests must never be loaded by ``tempest run``.
        self.assertFalse(os.path.exists(os.path.join(test_dir, 'unit')))

    def test_register_opts(self):
        conf = cfg.ConfigOpts()
        plugin.PendingTempestPlugin().register_opts(conf)
        group = conf[project_config.GROUP_NAME]
        self.assertFalse(group.pending_state_enabled)
        self.assertIsNone(group.pending_state_microversion)
        self.assertIsNone(group.cell0_rebuild_microversion)
        self.assertEqual('admin_only', group.host_status_policy_profile)

    def test_policy_profile_is_validated(self):
        conf = cfg.ConfigOpts()
        project_config.register_opts(conf)
        self.assertRaises(
            ValueError, conf.set_override, 'host_status_policy_profile',
            'everyone', group=project_config.GROUP_NAME)

    def test_get_opt_lists_matches_list_opts(self):
        opt_lists = plugin.PendingTempestPlugin().get_opt_lists()
        self.assertEqual([project_config.GROUP_NAME],
                         [name for name, _ in opt_lists])
        names = {opt.name for _, opts in opt_lists for opt in opts}
        self.assertIn('pending_state_microversion', names)
