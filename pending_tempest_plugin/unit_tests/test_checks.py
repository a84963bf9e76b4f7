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
"""The pure checks of common/checks.py."""

from oslotest import base

from pending_tempest_plugin.common import checks


class TestFaultProblems(base.BaseTestCase):

    FAULT = {'code': 500, 'created': '2026-11-23T23:00:00Z',
             'message': 'No valid host was found. There are not enough '
                        'hosts available.'}

    def test_the_novalidhost_fault(self):
        self.assertEqual([], checks.fault_problems(self.FAULT))

    def test_no_fault(self):
        problems = checks.fault_problems(None, 'admin (show): ')
        self.assertEqual(1, len(problems))
        self.assertIn('admin (show): fault: expected the NoValidHost fault',
                      problems[0])
        self.assertIn('got no fault key', problems[0])

    def test_each_wrong_field(self):
        fault = dict(self.FAULT, code='500', message='Build failed')
        del fault['created']
        problems = checks.fault_problems(fault)
        self.assertEqual(3, len(problems), problems)
        self.assertIn("fault code: expected an integer, got '500'",
                      problems[0])
        self.assertIn("fault created: expected a time, got '<absent>'",
                      problems[1])
        self.assertIn("fault message: expected it to say 'No valid host was "
                      "found', got 'Build failed'", problems[2])


class TestStates(base.BaseTestCase):

    def test_buried_state(self):
        self.assertEqual(('PENDING', 'pending'), checks.buried_state(True))
        self.assertEqual(('ERROR', 'error'), checks.buried_state(False))

    def test_shown_state(self):
        self.assertEqual(('PENDING', 'pending'),
                         checks.shown_state('pending', '2.105', '2.105'))
        self.assertEqual(('ERROR', 'error'),
                         checks.shown_state('pending', '2.104', '2.105'))
        self.assertEqual(('ERROR', 'error'),
                         checks.shown_state('pending', '2.106', None))
        self.assertEqual(('ERROR', 'error'),
                         checks.shown_state('error', '2.106', '2.105'))

    def test_differences(self):
        self.assertEqual([], checks.differences(
            {'a': 1, 'b': None}, {'a': 1, 'b': None, 'c': 3}))
        self.assertEqual(
            ["x: a: expected 1, got 2", "x: b: expected None, got '<absent>'"],
            checks.differences({'a': 1, 'b': None}, {'a': 2}, 'x: '))


class TestAddresses(base.BaseTestCase):

    def test_addresses_of(self):
        body = {'addresses': {
            'net-b': [{'addr': '10.0.0.13', 'version': 4}],
            'net-a': [{'addr': '10.1.0.2', 'version': 4},
                      {'addr': '10.1.0.9', 'version': 4}]}}
        self.assertEqual(['10.0.0.13', '10.1.0.2', '10.1.0.9'],
                         checks.addresses_of(body))

    def test_no_addresses(self):
        self.assertEqual([], checks.addresses_of({'addresses': {}}))
        self.assertEqual([], checks.addresses_of({}))


class TestQuotaOverrun(base.BaseTestCase):

    def test_within_quota(self):
        self.assertIsNone(checks.quota_overrun('cores', 2, 1, 2))

    def test_unlimited(self):
        self.assertIsNone(checks.quota_overrun('cores', -1, 1, 50))

    def test_lowered_below_usage_may_stay(self):
        # Forced to 0 while the buried server counts 1: still 1 is fine.
        self.assertIsNone(checks.quota_overrun('cores', 0, 1, 1))

    def test_grew_past_quota(self):
        message = checks.quota_overrun('cores', 0, 1, 2)
        self.assertIn('cores usage is 2', message)
        self.assertIn('limit 0', message)
        self.assertIsNone(checks.quota_overrun('cores', 0, 0, 0))
        self.assertIsNotNone(checks.quota_overrun('cores', 0, 0, 1))


class TestJudgePair(base.BaseTestCase):
    """Two rebuilds of one buried server at once (RB-19)."""

    def test_one_cell0_rebuild_and_a_conflict(self):
        for pair in (((202, 'BUILD', ''), (409, None, 'task_state')),
                     ((409, None, ''), (202, 'BUILD', '')),
                     ((202, 'BUILD', ''), (202, 'REBUILD', ''))):
            self.assertEqual([], checks.judge_pair(pair))

    def test_two_cell0_rebuilds(self):
        problems = checks.judge_pair(((202, 'BUILD', ''), (202, 'BUILD', '')))
        self.assertIn('expected exactly one cell0 rebuild accepted',
                      problems[0])

    def test_no_rebuild_or_a_server_error(self):
        self.assertIn('expected exactly one', checks.judge_pair(
            ((409, None, ''), (409, None, '')))[0])
        problems = checks.judge_pair(((202, 'BUILD', ''), (500, None, 'boom')))
        self.assertIn('expected 409 Conflict', problems[0])
        self.assertIn('500', problems[0])
        self.assertIn('expected 409 Conflict', checks.judge_pair(
            ((202, 'BUILD', ''), (404, None, 'gone')))[0])
