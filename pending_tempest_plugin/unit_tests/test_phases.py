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

import io
import os
import subprocess

import fixtures

from pending_tempest_plugin.runner import phases
from pending_tempest_plugin.unit_tests import fakes

PKG = 'pending_tempest_plugin.tests.api.compute.'
SERIAL = (PKG + 'test_host_status_disruptive.HostStatusDisruptiveTest.'
          'test_down[id-2342d3e2-25fa-404b-bc5a-acc4e9cadc53,slow]')
LISTING = (PKG + 'test_host_status_listing.HostStatusListingTest.'
           'test_detail_listing_of_several_servers[id-2388]')
LISTING_UNKNOWN = (PKG + 'test_host_status_listing.'
                   'HostStatusListingStoppedComputeTest.'
                   'test_detail_listing_host_unknown[id-b1c8,slow]')
PENDING = PKG + 'test_pending_state.PendingStateTest.test_status_filter[id-1]'


class TestSplit(fakes.FileTestCase):

    def test_serial_read_from_the_classes_order_kept(self):
        self.assertEqual(
            ([SERIAL, LISTING_UNKNOWN], [PENDING, LISTING]),
            phases.split([PENDING, SERIAL, LISTING, LISTING_UNKNOWN]))

    def test_every_serial_class_of_the_suite_changes_a_compute(self):
        # The serial phase is for classes that disable, force down or stop
        # a compute; a class made serial without that need costs the whole
        # run its second worker while it runs.
        import pending_tempest_plugin.tests.api.compute as compute
        serial = []
        for name in sorted(os.listdir(os.path.dirname(compute.__file__))):
            if name.startswith('test_') and name.endswith('.py'):
                module = __import__(PKG + name[:-3], fromlist=['x'])
                serial.extend(
                    cls.__name__ for cls in vars(module).values()
                    if isinstance(cls, type)
                    and getattr(cls, '_serial', False))
        self.assertEqual(
            ['HostStatusDisruptiveTest', 'HostStatusListingDisruptiveTest',
             'HostStatusListingStoppedComputeTest'], serial)

    def test_unimportable_or_unknown_ids_go_parallel(self):
        self.assertEqual(
            ([], ['no_such_pkg.mod.Class.test_x', 'x',
                  PKG + 'test_pending_state.NoSuchClass.test_x']),
            phases.split(['no_such_pkg.mod.Class.test_x', 'x',
                          PKG + 'test_pending_state.NoSuchClass.test_x']))


class TestRun(fakes.FileTestCase):
    """phases.run against a fake `tempest run` that records stestr runs."""

    def setUp(self):
        super(TestRun, self).setUp()
        os.makedirs(os.path.join(self.tmp, '.stestr'))
        self.calls = []
        self.rcs = {}
        self.load_fails = False
        self.useFixture(fixtures.MonkeyPatch(
            'pending_tempest_plugin.runner.phases.subprocess.run',
            self.fake_run))
        self.useFixture(fixtures.MonkeyPatch(
            'pending_tempest_plugin.runner.phases._stream', self.fake_stream))

    def fake_record(self):
        run_id = self.next_id()
        with open(os.path.join(self.tmp, '.stestr', run_id), 'w') as f:
            f.write('run')
        with open(os.path.join(self.tmp, '.stestr', 'next-stream'),
                  'w') as f:
            f.write(str(int(run_id) + 1))

    def fake_stream(self, stestr, run_id):
        return b'<%s>' % run_id.encode()

    def next_id(self):
        return phases.next_run_id(os.path.join(self.tmp, '.stestr'))

    def fake_run(self, cmd, cwd=None, **kwargs):
        self.calls.append(cmd)
        if '--list-tests' in cmd:
            return subprocess.CompletedProcess(
                cmd, 0, stdout=self.listed, stderr='')
        if cmd[1] == 'load' and not self.load_fails:
            self.fake_record()
        if cmd[1] in ('load', 'init'):
            return subprocess.CompletedProcess(cmd, 0, stdout=b'',
                                               stderr=b'broken')
        load = cmd[cmd.index('--load-list') + 1]
        with open(load) as f:
            self.loaded = getattr(self, 'loaded', []) + [f.read().split()]
        self.fake_record()
        return subprocess.CompletedProcess(
            cmd, self.rcs.get(cmd[3], 0))

    def test_serial_first_one_worker_then_parallel_loaded_as_one_run(self):
        self.listed = '\n'.join([PENDING, SERIAL, LISTING]) + '\n'
        self.rcs = {'1': 1}   # the serial phase fails
        rc, stream = phases.run(['--regex', 'x'], 2, cwd=self.tmp,
                                tempest='T')
        self.assertEqual(1, rc)
        runs = [c for c in self.calls if c[1] == 'run'
                and '--list-tests' not in c]
        self.assertEqual(['T', 'run', '--concurrency', '1', '--regex', 'x',
                          '--load-list'], runs[0][:7])
        self.assertEqual(['T', 'run', '--concurrency', '2', '--regex', 'x',
                          '--load-list'], runs[1][:7])
        self.assertEqual([[SERIAL], [PENDING, LISTING]], self.loaded)
        self.assertFalse(os.path.exists(runs[0][-1]))
        self.assertEqual(b'<0><1>', stream)
        self.assertEqual('load', self.calls[-1][1])

    def test_a_load_that_stored_nothing_is_an_error(self):
        self.listed = '\n'.join([PENDING, SERIAL]) + '\n'
        self.load_fails = True
        err = self.useFixture(fixtures.MonkeyPatch(
            'sys.stderr', io.StringIO())).new_value
        rc, stream = phases.run([], 2, cwd=self.tmp, tempest='T')
        self.assertEqual(2, rc)
        self.assertIn('stestr load of the two phases failed', err.getvalue())
        self.assertIn('broken', err.getvalue())

    def test_one_phase_only_is_not_loaded_again(self):
        self.listed = PENDING + '\n'
        rc, stream = phases.run(['--regex', 'x'], 2, cwd=self.tmp,
                                tempest='T')
        self.assertEqual((0, b'<0>'), (rc, stream))
        self.assertNotIn('load', [c[1] for c in self.calls])

    def test_a_phase_that_recorded_nothing_has_no_stream(self):
        self.listed = SERIAL + '\n'
        self.useFixture(fixtures.MonkeyPatch(
            'pending_tempest_plugin.runner.phases.next_run_id',
            lambda stestr: '7'))
        rc, stream = phases.run([], 2, cwd=self.tmp, tempest='T')
        self.assertEqual(b'', stream)

    def test_a_workspace_that_never_ran_gets_its_stestr_repository(self):
        os.rmdir(os.path.join(self.tmp, '.stestr'))
        self.write('.stestr.conf', '[DEFAULT]\n')
        self.listed = ''
        phases.list_tests('T', ['--regex', 'x'], self.tmp)
        self.assertEqual('init', self.calls[0][1])
        self.assertEqual(['T', 'run', '--list-tests', '--regex', 'x'],
                         self.calls[1])
        # With a repository, no init.
        os.makedirs(os.path.join(self.tmp, '.stestr'))
        phases.list_tests('T', [], self.tmp)
        self.assertEqual(['T', 'run', '--list-tests'], self.calls[2])

    def test_listing_failure_is_an_error(self):
        self.listed = ''
        self.useFixture(fixtures.MonkeyPatch(
            'pending_tempest_plugin.runner.phases.subprocess.run',
            lambda cmd, **kw: subprocess.CompletedProcess(
                cmd, 2, stdout='', stderr='bad conf')))
        e = self.assertRaises(RuntimeError, phases.run, [], 2,
                              cwd=self.tmp, tempest='T')
        self.assertIn('bad conf', str(e))
