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
"""The pure microversion helpers of common/microversions.py."""

import types

from oslotest import base

from pending_tempest_plugin.common import microversions


class TestMicroversions(base.BaseTestCase):

    def test_at_least(self):
        self.assertTrue(microversions.at_least('2.105', '2.105'))
        self.assertTrue(microversions.at_least('2.106', '2.38'))
        self.assertFalse(microversions.at_least('2.9', '2.38'))
        self.assertTrue(microversions.at_least('latest', '2.106'))

    def test_previous_microversion(self):
        self.assertEqual('2.104', microversions.previous_microversion('2.105'))
        self.assertEqual('2.9', microversions.previous_microversion('2.10'))
        self.assertEqual('2.1', microversions.previous_microversion('2.2'))
        self.assertIsNone(microversions.previous_microversion('2.1'))

    def test_versions_to_check(self):
        self.assertEqual(
            ['2.1', '2.37', '2.105', '2.106'],
            microversions.versions_to_check(
                ['2.106', '2.1', None, '2.37', '2.105', '2.106', 'latest']))
        self.assertEqual(['2.37'], microversions.versions_to_check(
            ['2.1', '2.37', '2.105'], api_min='2.10', api_max='2.100'))

    def test_api_max_microversion_any_user(self):
        client = types.SimpleNamespace(list_versions=lambda: {'versions': [
            {'id': 'v2.0', 'version': ''}, {'id': 'v2.1', 'version': '2.9'},
            {'id': 'v2.1', 'version': '2.106'}]})
        self.assertEqual('2.106', microversions.api_max_microversion(client))
