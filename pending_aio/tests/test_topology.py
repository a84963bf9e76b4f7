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

import os
import re

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
    def suite_tests():
        from pending_tempest_plugin.conformance import catalogue
        tests, _ = catalogue.scan_tests()
        return [t.name for t in tests]

    @classmethod
    def suite_classes(cls):
        return set(t.rsplit('.', 1)[0] for t in cls.suite_tests())

    @staticmethod
    def named():
        from pending_aio.stages import plugin_legs
        return set(c for leg in conformance.LEGS if leg.classes != 'suite'
                   for c in leg.classes) | set(plugin_legs.CLASSES)

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


class TestLegs(fakes.FileTestCase):
    """The verdict's legs are the playbook's file's aio_conformance_legs."""

    PLANES = ('aio_nova_planes:\n'
              '  - {name: pending-off, use_pending_state: false}\n')

    def group_vars(self, legs):
        return self.write('all.yaml', '---\n%saio_conformance_legs:\n%s'
                          % (self.PLANES, legs))

    def test_the_stages_legs_are_the_files(self):
        self.assertEqual(
            [(leg['name'], leg['plane'], leg['classes'])
             for leg in topology.legs()],
            [(leg.name, leg.plane, leg.classes) for leg in conformance.LEGS])
        self.assertEqual(['default', 'pending-off'],
                         [leg.name for leg in conformance.LEGS])
        self.assertEqual(conformance.SUITE_REGEX,
                         conformance.DEFAULT_LEG.regex)
        self.assertTrue(os.path.isfile(conformance.PENDING_OFF_LEG.weights))

    def test_a_throwaway_leg_from_the_file_alone_selects_tests(self):
        # The repository's file, with one more leg written in it only.
        import yaml
        data = dict(topology.group_vars())
        data['aio_conformance_legs'] = data['aio_conformance_legs'] + [{
            'name': 'throwaway', 'plane': 'unified-limits',
            'classes': ['pending_tempest_plugin.tests.api.compute.'
                        'test_host_status.HostStatusTest'],
            'decides': 'HS rows through the unified-limits plane'}]
        path = self.write('all.yaml', yaml.safe_dump(data))
        legs = conformance.make_legs(topology.legs(path))
        self.assertEqual(['default', 'pending-off', 'throwaway'],
                         [leg.name for leg in legs])
        leg = legs[-1]
        self.assertEqual('unified-limits', leg.plane)
        self.assertIsNone(leg.weights)
        tests = TestLegClasses.suite_tests()
        selected = [t for t in tests if re.match(leg.regex, t)]
        self.assertTrue(selected)
        self.assertTrue(all('.HostStatusTest.' in t for t in selected))

    def test_each_leg_selects_a_test(self):
        tests = TestLegClasses.suite_tests()
        for leg in conformance.LEGS:
            self.assertTrue([t for t in tests if re.match(leg.regex, t)],
                            leg.name)

    def test_malformed_legs_are_refused_naming_the_leg(self):
        cases = [
            ('  - {name: x, plane: nowhere, classes: suite, decides: d}\n',
             "aio_conformance_legs[0] (x): plane 'nowhere'"),
            ('  - {name: x, plane: "", classes: [], decides: d}\n',
             'classes is `suite` or a non-empty list'),
            ('  - {name: x, plane: "", classes: suite}\n',
             'missing decides'),
            ('  - {name: x, plane: "", classes: suite, decides: d, '
             'regex: y}\n', 'unknown regex'),
            ('  - {name: x, plane: "", classes: suite, decides: d}\n'
             '  - {name: x, plane: "", classes: suite, decides: d}\n',
             'names must be unique'),
        ]
        for legs, message in cases:
            topology.group_vars.cache_clear()
            error = self.assertRaises(topology.TopologyError, topology.legs,
                                      self.group_vars(legs))
            self.assertIn(message, str(error))
