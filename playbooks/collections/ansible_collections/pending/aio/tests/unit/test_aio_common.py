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
"""What the collection's module_utils share: the one polling loop."""

from unittest import mock

import aio_testcase
from ansible_collections.pending.aio.plugins.module_utils import aio_common


class TestPoll(aio_testcase.AioTestCase):

    def test_logs_each_change_and_raises_at_the_end(self):
        values = iter([1, 1, 2, 2, 2])
        log = []
        with mock.patch.object(aio_common.time, 'sleep', autospec=True):
            exc = self.assertRaises(
                KeyError, aio_common.poll, lambda: next(values),
                lambda v: v == 3, 0, 0, lambda v: KeyError(v), 'x', log)
        self.assertEqual(['x: 1 (after'], [line[:11] for line in log])
        self.assertEqual(KeyError(1).args, exc.args)


class TestAioError(aio_testcase.AioTestCase):

    def test_ends_with_the_tail_of_the_log(self):
        log = self.path('nova-api.log')
        with open(log, 'w') as f:
            f.write(''.join('line %d\n' % i for i in range(30)))
        text = str(aio_common.AioError('nova-api failed', log, tail=2))
        self.assertEqual('nova-api failed\n---- last 2 lines of %s ----\n'
                         'line 28\nline 29\n' % log, text)
        self.assertEqual('x', str(aio_common.AioError('x', self.path('no'))))


class TestEnviron(aio_testcase.AioTestCase):

    def test_extra_values_as_text_over_this_environment(self):
        self.assertIsNone(aio_common.environ({}))
        env = aio_common.environ({'ERL_EPMD_PORT': 4369})
        self.assertEqual('4369', env['ERL_EPMD_PORT'])
        self.assertEqual(aio_common.os.environ.get('PATH'), env.get('PATH'))
