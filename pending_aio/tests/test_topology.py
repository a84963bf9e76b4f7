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
"""The topology the stages read is the playbook's group variables."""

from pending_aio.stages import conformance
from pending_aio import topology
from pending_tempest_plugin.unit_tests import fakes


class TestTopology(fakes.FileTestCase):

    def group_vars(self):
        return self.write('all.yaml', (
            '---\n'
            'aio_nova_planes:\n'
            '  - {name: pend-off, use_pending_state: false, quota_counting: '
            'placement, recheck_quota: true}\n'
            '  - {name: limits, quota_counting: unified_limits}\n'
            'aio_host_status_profile_apis: [unknown_only, admin_or_owner]\n'
            'aio_reference_microversions:\n'
            '  pending_state_microversion: "2.110"\n'
            '  cell0_rebuild_microversion: "2.111"\n'))

    def test_planes_as_up_variables_in_the_files_terms(self):
        path = self.group_vars()
        self.assertEqual(
            {'pend-off': 'aio_use_pending_state=false '
                         'aio_quota_counting=placement '
                         'aio_quota_recheck=true',
             'limits': 'aio_quota_counting=unified_limits'},
            topology.planes(path))
        self.assertEqual(('unknown_only', 'admin_or_owner'),
                         topology.profile_apis(path))
        # Strings: 2.110 is not 2.11.
        self.assertEqual({'pending_state_microversion': '2.110',
                          'cell0_rebuild_microversion': '2.111'},
                         topology.microversions(path))

    def test_the_stages_read_the_playbooks_file(self):
        self.assertEqual(topology.planes(), conformance.PLANES)
        self.assertEqual(topology.profile_apis(), conformance.PROFILE_APIS)
        self.assertEqual(
            ['cell0_rebuild_microversion', 'pending_state_microversion'],
            sorted(topology.microversions()))


class TestLegClasses(fakes.FileTestCase):
    """Every class a leg names is a class of the suite."""

    @staticmethod
    def suite_classes():
        from pending_tempest_plugin.conformance import catalogue
        tests, _ = catalogue.scan_tests()
        return set(t.name.rsplit('.', 1)[0] for t in tests)

    @staticmethod
    def named():
        from pending_aio.stages import plugin_legs
        return set(conformance.PENDING_OFF_CLASSES) | set(plugin_legs.CLASSES)

    def test_each_class_a_leg_names_is_in_the_suite(self):
        self.assertEqual(set(), self.named() - self.suite_classes())

    def test_a_renamed_class_is_found(self):
        renamed = set(c for c in self.suite_classes()
                      if not c.endswith('.Cell0RebuildQuotaTest'))
        self.assertEqual(
            {'pending_tempest_plugin.tests.api.compute.test_cell0_rebuild.'
             'Cell0RebuildQuotaTest'}, self.named() - renamed)

    def test_the_regex_selects_exactly_the_classes(self):
        import re
        regex = re.compile(conformance.classes_regex('a.B', 'a.C'))
        self.assertTrue(regex.match('a.B.test_x[id-1]'))
        self.assertTrue(regex.match('a.C.test_y'))
        self.assertFalse(regex.match('a.BB.test_x'))
        self.assertFalse(regex.match('aXB.test_x'))
