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
"""Skip messages and configuration contradictions."""

from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import features
from pending_tempest_plugin.unit_tests import fakes


class TestFeatures(fakes.ConfTestCase):

    def test_defaults_skip_every_new_feature_naming_the_option(self):
        self.assertEqual([], features.config_problems(self.group))
        for reason, option in (
                (features.pending_microversion(self.group),
                 'pending_state_microversion'),
                (features.pending_enabled(self.group),
                 'pending_state_microversion'),
                (features.cell0_rebuild(self.group),
                 'cell0_rebuild_microversion'),
                (features.disruptive(group=self.group),
                 'disruptive_tests = True')):
            self.assertIn('[nova_conformance] %s' % option, reason)
        self.assertIsNone(features.novalidhost(self.group))

    def test_pending_enabled(self):
        self.set(pending_state_microversion='2.105')
        self.assertIsNone(features.pending_microversion(self.group))
        self.assertIn('pending_state_enabled = True',
                      features.pending_enabled(self.group))
        self.set(pending_state_enabled=True)
        self.assertIsNone(features.pending_enabled(self.group))
        self.set(novalidhost_trigger='none')
        self.assertIn('novalidhost_trigger = trait',
                      features.pending_enabled(self.group))

    def test_cell0_rebuild(self):
        self.set(cell0_rebuild_microversion='2.106', capacity_hosts=['cn2'])
        self.assertIsNone(features.cell0_rebuild(self.group))
        self.set(novalidhost_trigger='none')
        self.assertIn('novalidhost_trigger',
                      features.cell0_rebuild(self.group))

    def test_disruptive(self):
        self.set(disruptive_tests=True, disruptive_hosts=['cn1'])
        self.assertIsNone(features.disruptive(group=self.group))
        self.assertIn('compute_stop_command and compute_start_command',
                      features.disruptive(stop=True, group=self.group))
        self.set(compute_stop_command='supervisorctl stop nova-compute-{host}',
                 compute_start_command='supervisorctl start '
                                       'nova-compute-{host}')
        self.assertIsNone(features.disruptive(stop=True, group=self.group))

    def test_two_cells(self):
        self.set(cell0_rebuild_microversion='2.106', capacity_hosts=['cn2'])
        self.assertIn('compute_host_cells', features.two_cells(self.group))
        # One cell claimed: a single-cell cloud, the tests skip.
        self.set(compute_host_cells={'cn1': 'cell1', 'cn2': 'cell1'},
                 capacity_hosts=['cn2', 'cn1'])
        self.assertIn('compute_host_cells', features.two_cells(self.group))
        self.set(compute_host_cells={'cn1': 'cell1', 'cn2': 'cell2'})
        self.assertIsNone(features.two_cells(self.group))
        self.assertEqual({'cell1': ['cn1'], 'cell2': ['cn2']},
                         features.host_cells(self.group))
        # Two cells claimed, capacity in one: a configuration error.
        self.set(capacity_hosts=['cn2'])
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              features.two_cells, self.group)
        self.assertIn('capacity_hosts (or disruptive_hosts) lists hosts of '
                      'cell2', str(e))
        self.set(cell0_rebuild_microversion=None)
        self.assertIn('cell0_rebuild_microversion',
                      features.two_cells(self.group))

    def test_down_cell(self):
        self.set(cell0_rebuild_microversion='2.106',
                 compute_host_cells={'cn1': 'cell1', 'cn2': 'cell2'},
                 capacity_hosts=['cn2', 'cn1'])
        self.assertIn('disruptive_tests = True',
                      features.down_cell(self.group))
        self.set(disruptive_tests=True, disruptive_hosts=['cn1', 'cn2'])
        self.assertIn('disruptive_cells', features.down_cell(self.group))
        self.set(disruptive_cells=['cell2'],
                 cell_stop_command='supervisorctl stop mariadb-{cell}',
                 cell_start_command='supervisorctl start mariadb-{cell}')
        self.assertEqual([], features.config_problems(self.group))
        self.assertIsNone(features.down_cell(self.group))
        # No capacity host in the cell taken down: skipped, naming it.
        self.set(capacity_hosts=['cn1', 'cn3'],
                 compute_host_cells={'cn1': 'cell1', 'cn2': 'cell2',
                                     'cn3': 'cell3'},
                 disruptive_cells=['cell2'])
        self.assertIn('a host of cell2', features.down_cell(self.group))

    def test_down_cell_contradictions_are_errors(self):
        self.set(compute_host_cells={'cn1': 'cell1', 'cn2': 'cell2'},
                 disruptive_cells=['cell2'])
        problems = ' '.join(features.config_problems(self.group))
        self.assertIn('disruptive_cells needs disruptive_tests', problems)
        self.assertIn('disruptive_cells needs cell_stop_command', problems)
        self.set(disruptive_cells=['cell9', 'cell2'])
        self.assertIn('disruptive_cells names cell9, not a cell of '
                      'compute_host_cells (cell1, cell2)',
                      ' '.join(features.config_problems(self.group)))
        self.set(disruptive_cells=['cell1', 'cell2'])
        self.assertIn('disruptive_cells lists every claimed cell',
                      ' '.join(features.config_problems(self.group)))
        self.set(disruptive_cells=[], cell_stop_command='x {cell}')
        self.assertIn('cell_stop_command and cell_start_command are set '
                      'together',
                      ' '.join(features.config_problems(self.group)))

    def test_cell0_rebuild_without_a_capacity_host_is_an_error(self):
        self.set(cell0_rebuild_microversion='2.106')
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              features.cell0_rebuild, self.group)
        self.assertIn('needs capacity_hosts', str(e))
        self.set(disruptive_hosts=['cn1', 'cn2'])
        self.assertEqual(['cn1', 'cn2'], features.capacity_hosts(self.group))
        self.assertIsNone(features.cell0_rebuild(self.group))
        self.set(capacity_hosts=['cn2'])
        self.assertEqual(['cn2'], features.capacity_hosts(self.group))
        # No trigger: nothing is written, nothing needed.
        self.set(capacity_hosts=[], disruptive_hosts=[],
                 novalidhost_trigger='none')
        self.assertEqual([], features.config_problems(self.group))

    def test_pending_enabled_without_microversion_is_an_error(self):
        self.set(pending_state_enabled=True)
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              features.pending_microversion, self.group)
        self.assertIn('pending_state_enabled = True needs '
                      'pending_state_microversion', str(e))

    def test_one_command_template_alone_is_an_error(self):
        self.set(disruptive_tests=True, disruptive_hosts=['cn1'],
                 compute_stop_command='systemctl stop devstack@n-cpu')
        self.assertEqual(1, len(features.config_problems(self.group)))
        self.assertRaises(lib_exc.InvalidConfiguration,
                          features.disruptive, True, self.group)

    def test_disruptive_without_hosts_is_an_error(self):
        self.set(disruptive_tests=True)
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              features.disruptive, False, self.group)
        self.assertIn('disruptive_tests = True needs disruptive_hosts',
                      str(e))
        self.set(disruptive_hosts=['cn1', 'cn2'])
        self.assertIsNone(features.disruptive(group=self.group))

    def test_notifications_skip_naming_the_secret_option(self):
        reason = features.notifications(self.group)
        self.assertIn('[nova_conformance] notification_transport_url',
                      reason)
        self.set(notification_transport_url='rabbit://u:pw@h:5672/')
        self.assertIsNone(features.notifications(self.group))

    def test_stopped_compute_is_disruptive_with_the_commands(self):
        self.assertIn('disruptive_tests = True',
                      features.stopped_compute(self.group))
        self.set(disruptive_tests=True, disruptive_hosts=['cn1'])
        self.assertIn('compute_stop_command and compute_start_command',
                      features.stopped_compute(self.group))
        self.set(compute_stop_command='stop {host}',
                 compute_start_command='start {host}')
        self.assertIsNone(features.stopped_compute(self.group))

    def test_new_microversion_is_either_feature_microversion(self):
        self.assertIn('[nova_conformance] pending_state_microversion',
                      features.new_microversion(self.group))
        self.set(cell0_rebuild_microversion='2.106')
        self.assertIsNone(features.new_microversion(self.group))
        self.conf.clear_override('cell0_rebuild_microversion',
                                 group='nova_conformance')
        self.set(pending_state_microversion='2.105')
        self.assertIsNone(features.new_microversion(self.group))

    def test_host_status_profiles(self):
        self.assertEqual([('admin_only', None)],
                         features.host_status_profiles(self.group))
        self.set(host_status_profile_services={
            'unknown_only': 'compute-u', 'admin_or_owner': 'compute-a'})
        self.assertEqual([], features.config_problems(self.group))
        self.assertEqual([('admin_only', None),
                          ('admin_or_owner', 'compute-a'),
                          ('unknown_only', 'compute-u')],
                         features.host_status_profiles(self.group))

    def test_profile_services_that_contradict_are_errors(self):
        self.set(host_status_profile_services={'admin_only': 'compute-x'})
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              features.pending_microversion, self.group)
        self.assertIn('names admin_only, the value of '
                      'host_status_policy_profile', str(e))
        self.set(host_status_profile_services={'admin_or_owner': ' '})
        self.assertIn('admin_or_owner has no service type',
                      features.config_problems(self.group)[0])

    def test_quota_countings(self):
        self.assertEqual([('db', None)],
                         features.quota_countings(self.group))
        self.set(quota_counting_services={
            'unified_limits': 'compute-u', 'placement': 'compute-p'})
        self.assertEqual([], features.config_problems(self.group))
        self.assertEqual([('db', None), ('placement', 'compute-p'),
                          ('unified_limits', 'compute-u')],
                         features.quota_countings(self.group))

    def test_quota_services_that_contradict_are_errors(self):
        self.set(quota_counting_services={'db': 'compute-x'})
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              features.quota_countings, self.group)
        self.assertIn('quota_counting_services names db, the value of '
                      'quota_counting', str(e))
        self.set(quota_counting_services={'nova': 'compute-x'})
        self.assertIn("names 'nova', not one of db, placement, "
                      "unified_limits",
                      features.config_problems(self.group)[0])
        self.set(quota_counting_services={'placement': 'compute'})
        self.assertIn('the service type compute, the cloud\'s own endpoint',
                      features.config_problems(self.group)[0])
        self.set(quota_counting_services={'placement': 'compute-x',
                                          'unified_limits': 'compute-x'})
        self.assertIn('gives one service type to several',
                      features.config_problems(self.group)[0])
        self.set(host_status_profile_services={'admin_or_owner': 'compute'})
        self.assertIn('the service type compute, the cloud\'s own endpoint',
                      features.config_problems(self.group)[0])
