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
"""Where the host_status listing tests put their servers (spread_plan)."""

from oslotest import base

from pending_tempest_plugin.common import spread

COMPUTES = ['cn1', 'cn2', 'cn3']


class TestSpreadPlan(base.BaseTestCase):

    def test_already_spread_no_move(self):
        self.assertEqual(('cn1', []), spread.spread_plan(
            {'a': 'cn1', 'b': 'cn2', 'c': 'cn1'}, COMPUTES, None))

    def test_target_is_an_allowed_host_in_use(self):
        self.assertEqual(('cn2', []), spread.spread_plan(
            {'a': 'cn1', 'b': 'cn2', 'c': 'cn1'}, COMPUTES, ['cn2', 'cn3']))

    def test_all_on_one_host_one_move(self):
        self.assertEqual(('cn1', [('c', 'cn2')]), spread.spread_plan(
            {'a': 'cn1', 'b': 'cn1', 'c': 'cn1'}, COMPUTES, None))

    def test_none_on_an_allowed_host_moves_one_there(self):
        self.assertEqual(('cn3', [('a', 'cn3')]), spread.spread_plan(
            {'a': 'cn1', 'b': 'cn1', 'c': 'cn2'}, COMPUTES, ['cn3']))

    def test_all_on_the_one_allowed_host(self):
        self.assertEqual(('cn2', [('c', 'cn1')]), spread.spread_plan(
            {'a': 'cn2', 'b': 'cn2', 'c': 'cn2'}, COMPUTES, ['cn2']))

    def test_one_compute_is_not_enough(self):
        e = self.assertRaises(ValueError, spread.spread_plan,
                              {'a': 'cn1'}, ['cn1'], None)
        self.assertIn('need two enabled and up computes', str(e))

    def test_no_allowed_compute(self):
        e = self.assertRaises(ValueError, spread.spread_plan,
                              {'a': 'cn1'}, ['cn1', 'cn2'], ['cn9'])
        self.assertIn("one of them in ['cn9']", str(e))
