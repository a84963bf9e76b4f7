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
"""Work done once per distinct input (``aio_cache``)."""

import hashlib
import json
import os
import stat

import aio_testcase
from ansible_collections.pending.aio.plugins.module_utils import aio_cache


class TestRecallRemember(aio_testcase.AioTestCase):
    """A module's own result, stored once per distinct input."""

    def test_remembered_then_recalled(self):
        path = self.path('data', 'cache', 'seed.json')    # folders made
        aio_cache.remember(path, 'k', {'facts': {'a': 1}})
        self.assertEqual({'facts': {'a': 1}}, aio_cache.recall(path, 'k'))
        with open(path) as f:
            stored = json.load(f)
        self.assertEqual({'key': hashlib.sha256(b'k').hexdigest(),
                          'result': {'facts': {'a': 1}}}, stored)
        self.assertEqual(['seed.json'],
                         os.listdir(self.path('data', 'cache')))

    def test_another_key_is_a_miss(self):
        path = self.path('c.json')
        aio_cache.remember(path, 'password one', {'x': 1})
        self.assertIsNone(aio_cache.recall(path, 'password two'))
        with open(path) as f:
            self.assertNotIn('password', f.read())
        # What check mode shows on a miss: the last result, whatever key.
        self.assertEqual({'x': 1}, aio_cache.stored(path))

    def test_a_missing_file_is_a_miss(self):
        self.assertIsNone(aio_cache.recall(self.path('none.json'), 'k'))
        self.assertIsNone(aio_cache.stored(self.path('none.json')))

    def test_a_corrupt_file_is_a_miss(self):
        for text in ('{"key": ', 'not json', '[1, 2]', ''):
            with open(self.path('c.json'), 'w') as f:
                f.write(text)
            self.assertIsNone(aio_cache.recall(self.path('c.json'), 'k'),
                              text)
            self.assertIsNone(aio_cache.stored(self.path('c.json')), text)

    def test_the_file_is_owner_only_and_replaced(self):
        path = self.path('c.json')
        with open(path, 'w') as f:
            f.write('old')
        os.chmod(path, 0o644)
        aio_cache.remember(path, 'k', {'v': 1})
        self.assertEqual(0o600, stat.S_IMODE(os.stat(path).st_mode))
        aio_cache.remember(path, 'k2', {'v': 2})
        self.assertEqual(0o600, stat.S_IMODE(os.stat(path).st_mode))
        self.assertIsNone(aio_cache.recall(path, 'k'))
        self.assertEqual({'v': 2}, aio_cache.recall(path, 'k2'))
        self.assertEqual(['c.json'], os.listdir(self.tmp))


class TestInputsKey(aio_testcase.AioTestCase):

    def test_names_only_the_inputs_and_the_version(self):
        key = aio_cache.inputs_key('1', {'a': 1, 'b': [2], 'cache': '/x'},
                                   ('b', 'a'))
        self.assertEqual({'version': '1', 'options': {'a': 1, 'b': [2]}},
                         json.loads(key))
        self.assertNotEqual(key, aio_cache.inputs_key(
            '2', {'a': 1, 'b': [2]}, ('a', 'b')))
