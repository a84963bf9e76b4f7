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
"""The one polling loop: returns, times out, logs each state change."""

import fixtures
from oslotest import base

from pending_tempest_plugin.common import polling
from pending_tempest_plugin.unit_tests import fakes


class PollTest(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.clock = self.useFixture(fakes.FakeClock(polling))
        self.log = self.useFixture(fixtures.FakeLogger(
            name=polling.__name__, format='%(message)s'))

    def test_returns_the_first_done_value(self):
        values = iter(['BUILD', 'BUILD', 'ACTIVE', 'never'])
        self.assertEqual('ACTIVE', polling.poll(
            lambda: next(values), lambda v: v == 'ACTIVE', 10, 2))
        self.assertEqual([2, 2], self.clock.sleeps)

    def test_logs_each_change_once_with_the_elapsed_time(self):
        values = iter(['a', 'a', 'a', 'b', 'b', 'c'])
        polling.poll(lambda: next(values), lambda v: v == 'c', 60, 1,
                     what='thing', describe=str.upper)
        self.assertEqual(
            ['thing: A (after 0.0 s)', 'thing: B (after 3.0 s)',
             'thing: C (after 5.0 s)'],
            self.log.output.splitlines())

    def test_timeout_names_what_and_the_last_state(self):
        exc = self.assertRaises(
            polling.PollTimeout, polling.poll, lambda: 'BUILD',
            lambda v: False, 5, 2, what='server x to ACTIVE')
        self.assertEqual('BUILD', exc.value)
        self.assertIn("server x to ACTIVE: not done within 5 s; last: 'BUILD'",
                      str(exc))
        # fetched at 0, 2, 4 and 6: the last fetch is at or after the end
        self.assertEqual([2, 2, 2], self.clock.sleeps)

    def test_timed_out_gives_the_exception(self):
        self.assertRaises(KeyError, polling.poll, lambda: 1, lambda v: False,
                          1, 1, timed_out=lambda v: KeyError(v))

    def test_done_may_end_the_wait_early(self):
        def done(value):
            raise ValueError(value)
        self.assertRaises(ValueError, polling.poll, lambda: 'ERROR', done,
                          10, 1)
        self.assertEqual([], self.clock.sleeps)
