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
"""The pure helpers of tests/cell0_base.py and its skip conditions
(common/features.py)."""

import types

from oslotest import base
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import features
from pending_tempest_plugin.tests import cell0_base
from pending_tempest_plugin.unit_tests import fakes


class TestMicroversions(base.BaseTestCase):

    def test_at_least(self):
        self.assertTrue(cell0_base.at_least('2.105', '2.105'))
        self.assertTrue(cell0_base.at_least('2.106', '2.38'))
        self.assertFalse(cell0_base.at_least('2.9', '2.38'))
        self.assertTrue(cell0_base.at_least('latest', '2.106'))

    def test_previous_microversion(self):
        self.assertEqual('2.104', cell0_base.previous_microversion('2.105'))
        self.assertEqual('2.9', cell0_base.previous_microversion('2.10'))
        self.assertEqual('2.1', cell0_base.previous_microversion('2.2'))
        self.assertIsNone(cell0_base.previous_microversion('2.1'))

    def test_versions_to_check(self):
        self.assertEqual(
            ['2.1', '2.37', '2.105', '2.106'],
            cell0_base.versions_to_check(
                ['2.106', '2.1', None, '2.37', '2.105', '2.106', 'latest']))
        self.assertEqual(['2.37'], cell0_base.versions_to_check(
            ['2.1', '2.37', '2.105'], api_min='2.10', api_max='2.100'))


class TestFaultProblems(base.BaseTestCase):

    FAULT = {'code': 500, 'created': '2026-11-23T23:00:00Z',
             'message': 'No valid host was found. There are not enough '
                        'hosts available.'}

    def test_the_novalidhost_fault(self):
        self.assertEqual([], cell0_base.fault_problems(self.FAULT))

    def test_no_fault(self):
        problems = cell0_base.fault_problems(None, 'admin (show): ')
        self.assertEqual(1, len(problems))
        self.assertIn('admin (show): fault: expected the NoValidHost fault',
                      problems[0])
        self.assertIn('got no fault key', problems[0])

    def test_each_wrong_field(self):
        fault = dict(self.FAULT, code='500', message='Build failed')
        del fault['created']
        problems = cell0_base.fault_problems(fault)
        self.assertEqual(3, len(problems), problems)
        self.assertIn("fault code: expected an integer, got '500'",
                      problems[0])
        self.assertIn("fault created: expected a time, got '<absent>'",
                      problems[1])
        self.assertIn("fault message: expected it to say 'No valid host was "
                      "found', got 'Build failed'", problems[2])


class TestStates(base.BaseTestCase):

    def test_buried_state(self):
        self.assertEqual(('PENDING', 'pending'), cell0_base.buried_state(True))
        self.assertEqual(('ERROR', 'error'), cell0_base.buried_state(False))

    def test_shown_state(self):
        self.assertEqual(('PENDING', 'pending'),
                         cell0_base.shown_state('pending', '2.105', '2.105'))
        self.assertEqual(('ERROR', 'error'),
                         cell0_base.shown_state('pending', '2.104', '2.105'))
        self.assertEqual(('ERROR', 'error'),
                         cell0_base.shown_state('pending', '2.106', None))
        self.assertEqual(('ERROR', 'error'),
                         cell0_base.shown_state('error', '2.106', '2.105'))

    def test_differences(self):
        self.assertEqual([], cell0_base.differences(
            {'a': 1, 'b': None}, {'a': 1, 'b': None, 'c': 3}))
        self.assertEqual(
            ["x: a: expected 1, got 2", "x: b: expected None, got '<absent>'"],
            cell0_base.differences({'a': 1, 'b': None}, {'a': 2}, 'x: '))


class TestAddresses(base.BaseTestCase):

    def test_addresses_of(self):
        body = {'addresses': {
            'net-b': [{'addr': '10.0.0.13', 'version': 4}],
            'net-a': [{'addr': '10.1.0.2', 'version': 4},
                      {'addr': '10.1.0.9', 'version': 4}]}}
        self.assertEqual(['10.0.0.13', '10.1.0.2', '10.1.0.9'],
                         cell0_base.addresses_of(body))

    def test_no_addresses(self):
        self.assertEqual([], cell0_base.addresses_of({'addresses': {}}))
        self.assertEqual([], cell0_base.addresses_of({}))


class TestQuotaOverrun(base.BaseTestCase):

    def test_within_quota(self):
        self.assertIsNone(cell0_base.quota_overrun('cores', 2, 1, 2))

    def test_unlimited(self):
        self.assertIsNone(cell0_base.quota_overrun('cores', -1, 1, 50))

    def test_lowered_below_usage_may_stay(self):
        # Forced to 0 while the buried server counts 1: still 1 is fine.
        self.assertIsNone(cell0_base.quota_overrun('cores', 0, 1, 1))

    def test_grew_past_quota(self):
        message = cell0_base.quota_overrun('cores', 0, 1, 2)
        self.assertIn('cores usage is 2', message)
        self.assertIn('limit 0', message)
        self.assertIsNone(cell0_base.quota_overrun('cores', 0, 0, 0))
        self.assertIsNotNone(cell0_base.quota_overrun('cores', 0, 0, 1))


class TestSkips(fakes.ConfTestCase):

    def test_pending_disabled(self):
        self.assertIsNone(features.pending_disabled(self.group))
        self.set(pending_state_enabled=True,
                 pending_state_microversion='2.105')
        self.assertIn('pending_state_enabled = True',
                      features.pending_disabled(self.group))

    def test_pending_disabled_needs_a_trigger(self):
        self.set(novalidhost_trigger='none')
        self.assertIn('novalidhost_trigger',
                      features.pending_disabled(self.group))

    @staticmethod
    def _conf(ref=None, certs=None, cinder=False, neutron=True):
        return types.SimpleNamespace(
            compute=types.SimpleNamespace(
                certified_image_ref=ref, certified_image_trusted_certs=certs),
            service_available=types.SimpleNamespace(cinder=cinder,
                                                    neutron=neutron))

    def test_trusted_certs(self):
        self.assertIn('certified_image_ref',
                      features.trusted_certs(self._conf()))
        self.assertIn('certified_image_trusted_certs',
                      features.trusted_certs(self._conf(ref='img')))
        self.assertIsNone(features.trusted_certs(
            self._conf(ref='img', certs=['c1'])))

    def test_services(self):
        self.assertIn('[service_available] cinder is False',
                      features.volumes(self._conf()))
        self.assertIsNone(features.volumes(self._conf(cinder=True)))
        self.assertIsNone(features.networks(self._conf()))
        self.assertIn('[service_available] neutron is False',
                      features.networks(self._conf(neutron=False)))


class TestPersonas(base.BaseTestCase):
    """The personas' projects, as pre-provisioned accounts may get them."""

    def test_fitting_projects(self):
        self.assertIsNone(cell0_base.base.ConformanceTest.check_personas(
            'p-owner', 'p-owner', 'p-other'))

    def test_reader_of_another_project(self):
        e = self.assertRaises(
            lib_exc.InvalidConfiguration,
            cell0_base.base.ConformanceTest.check_personas,
            'p-owner', 'p-x', 'p-other')
        self.assertIn('owner_reader (Tempest project_reader, project p-x) '
                      'is not in the project of owner_member', str(e))

    def test_other_project_is_the_owners(self):
        e = self.assertRaises(
            lib_exc.InvalidConfiguration,
            cell0_base.base.ConformanceTest.check_personas,
            'p-owner', 'p-owner', 'p-owner')
        self.assertIn('other_project (Tempest alt) got an account of the '
                      "owner's project p-owner", str(e))

    def test_api_max_microversion_any_user(self):
        client = types.SimpleNamespace(list_versions=lambda: {'versions': [
            {'id': 'v2.0', 'version': ''}, {'id': 'v2.1', 'version': '2.9'},
            {'id': 'v2.1', 'version': '2.106'}]})
        self.assertEqual('2.106', cell0_base.api_max_microversion(client))


class TestJudgePair(base.BaseTestCase):
    """Two rebuilds of one buried server at once (RB-19)."""

    def setUp(self):
        super().setUp()
        from pending_tempest_plugin.tests.api.compute import (
            test_cell0_rebuild_races as races)
        self.judge = races.judge_pair

    def test_one_cell0_rebuild_and_a_conflict(self):
        for pair in (((202, 'BUILD', ''), (409, None, 'task_state')),
                     ((409, None, ''), (202, 'BUILD', '')),
                     ((202, 'BUILD', ''), (202, 'REBUILD', ''))):
            self.assertEqual([], self.judge(pair))

    def test_two_cell0_rebuilds(self):
        problems = self.judge(((202, 'BUILD', ''), (202, 'BUILD', '')))
        self.assertIn('expected exactly one cell0 rebuild accepted',
                      problems[0])

    def test_no_rebuild_or_a_server_error(self):
        self.assertIn('expected exactly one', self.judge(
            ((409, None, ''), (409, None, '')))[0])
        problems = self.judge(((202, 'BUILD', ''), (500, None, 'boom')))
        self.assertIn('expected 409 Conflict', problems[0])
        self.assertIn('500', problems[0])
        self.assertIn('expected 409 Conflict', self.judge(
            ((202, 'BUILD', ''), (404, None, 'gone')))[0])
