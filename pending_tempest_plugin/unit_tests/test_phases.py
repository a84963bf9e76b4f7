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
import re
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
        # a compute, or take a cell down; a class made serial without that
        # need costs the whole run its second worker while it runs.
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
            ['Cell0RebuildDownCellTest', 'HostStatusDisruptiveTest',
             'HostStatusListingDisruptiveTest',
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
        if '--worker-file' in cmd:
            with open(cmd[cmd.index('--worker-file') + 1]) as f:
                self.worker_file = f.read()
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

    def test_serial_done_between_the_phases(self):
        # Created after the serial phase, before the parallel one starts.
        done = os.path.join(self.tmp, 'serial-done')
        seen = []
        run = self.fake_run

        def fake_run(cmd, cwd=None, **kwargs):
            if cmd[1] == 'run' and '--load-list' in cmd:
                seen.append((cmd[3], os.path.exists(done)))
            return run(cmd, cwd=cwd, **kwargs)
        self.useFixture(fixtures.MonkeyPatch(
            'pending_tempest_plugin.runner.phases.subprocess.run', fake_run))
        self.listed = '\n'.join([PENDING, SERIAL]) + '\n'
        phases.run(['--regex', 'x'], 2, cwd=self.tmp, tempest='T',
                   serial_done=done)
        self.assertEqual([('1', False), ('2', True)], seen)
        # No serial class: at once; a failure: still created.
        os.remove(done)
        self.listed = PENDING + '\n'
        phases.run(['--regex', 'x'], 2, cwd=self.tmp, tempest='T',
                   serial_done=done)
        self.assertTrue(os.path.exists(done))
        os.remove(done)
        self.useFixture(fixtures.MonkeyPatch(
            'pending_tempest_plugin.runner.phases.subprocess.run',
            lambda cmd, **kw: subprocess.CompletedProcess(
                cmd, 2, stdout='', stderr='bad conf')))
        self.assertRaises(RuntimeError, phases.run, [], 2, cwd=self.tmp,
                          tempest='T', serial_done=done)
        self.assertTrue(os.path.exists(done))

    def test_parallel_phase_split_by_class_weight(self):
        import yaml
        self.listed = '\n'.join([PENDING, SERIAL, LISTING]) + '\n'
        out = self.useFixture(fixtures.MonkeyPatch(
            'sys.stdout', io.StringIO())).new_value
        phases.run(['--regex', 'x'], 2, cwd=self.tmp, tempest='T')
        runs = [c for c in self.calls if c[1] == 'run'
                and '--list-tests' not in c]
        self.assertNotIn('--worker-file', runs[0])   # the serial phase
        self.assertIn('--worker-file', runs[1])
        self.assertFalse(os.path.exists(runs[1][-1]))
        workers = yaml.safe_load(self.worker_file)
        self.assertEqual(2, len(workers))
        self.assertEqual(
            sorted(['^' + re.escape(phases.class_id(i)) + r'\.'
                    for i in (PENDING, LISTING)]),
            sorted(w['worker'][0] for w in workers))
        self.assertIn('classes split by weight', out.getvalue())

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


class TestWeights(fakes.FileTestCase):
    """The parallel phase's split by class weight."""

    def test_heaviest_first_onto_the_lightest_worker(self):
        ids = ['p.m.A.t1', 'p.m.A.t2', 'p.m.B.t', 'p.m.C.t[id-1]',
               'p.m.D.t', 'p.m.E.t']
        weights = {'p.m.A': 76, 'p.m.B': 42, 'p.m.C': 21, 'p.m.D': 12,
                   'p.m.E': 9}
        self.assertEqual([(76.0, ['p.m.A']),
                          (84.0, ['p.m.B', 'p.m.C', 'p.m.D', 'p.m.E'])],
                         phases.balance(ids, 2, weights))
        # More workers than classes: no empty worker.
        self.assertEqual([(76.0, ['p.m.A'])],
                         phases.balance(ids[:2], 3, weights))
        # A class without a weight (another suite's): stestr splits.
        self.assertIsNone(phases.balance(ids + ['x.y.Z.t'], 2, weights))
        self.assertIsNone(phases.balance([], 2, weights))

    def test_another_suites_weights_merged_over_the_suites(self):
        extra = os.path.join(self.tmp, 'w.yaml')
        with open(extra, 'w') as f:
            f.write('---\nx.y.Z: 3.5\n')
        weights = phases.all_weights([extra])
        self.assertEqual(3.5, weights['x.y.Z'])
        self.assertEqual(phases.load_weights()[phases.class_id(PENDING)],
                         weights[phases.class_id(PENDING)])

    def test_unreadable_weights_are_a_clear_error(self):
        bad = os.path.join(self.tmp, 'bad.yaml')
        with open(bad, 'w') as f:
            f.write('- a list\n')
        for path in (bad, os.path.join(self.tmp, 'missing.yaml')):
            err = self.useFixture(fixtures.MonkeyPatch(
                'sys.stderr', io.StringIO())).new_value
            self.assertEqual(2, phases.main(['--weights', path, '--regex',
                                             'x']))
            self.assertIn('class weights %s: ' % path, err.getvalue())
        self.assertIn('not a mapping of class id to seconds',
                      str(self.assertRaises(ValueError, phases.all_weights,
                                            [bad])))

    def test_worker_file_selects_each_test_once(self):
        from stestr import selection
        import yaml
        ids = [PKG + 'test_cell0_rebuild.Cell0RebuildTest.test_a[id-1]',
               PKG + 'test_cell0_rebuild.Cell0RebuildTestX.test_b[id-2]',
               PKG + 'test_pending_state.PendingStateTest.test_c[id-3]']
        groups = [(2.0, [phases.class_id(ids[0]), phases.class_id(ids[2])]),
                  (1.0, [phases.class_id(ids[1])])]
        workers = yaml.safe_load(phases.worker_file_text(groups))
        got = [selection.filter_tests(w['worker'], ids) for w in workers]
        self.assertEqual([[ids[0], ids[2]], [ids[1]]], got)

    def test_every_class_of_the_suite_has_a_weight(self):
        # A new class without one would make stestr split every run that
        # selects it by the workspace's history again.
        import pending_tempest_plugin.tests as tests
        from tempest import test
        top = os.path.dirname(tests.__file__)
        weights = phases.load_weights()
        missing = []
        for root, _, files in os.walk(top):
            for name in sorted(files):
                if not (name.startswith('test_') and name.endswith('.py')):
                    continue
                module = __import__('pending_tempest_plugin.tests.' + (
                    os.path.relpath(os.path.join(root, name[:-3]), top)
                    .replace(os.sep, '.')), fromlist=['x'])
                for cls in vars(module).values():
                    if (isinstance(cls, type)
                            and issubclass(cls, test.BaseTestCase)
                            and cls.__module__ == module.__name__
                            and any(n.startswith('test_') for n in vars(cls))):
                        key = '%s.%s' % (cls.__module__, cls.__name__)
                        if key not in weights:
                            missing.append(key)
        self.assertEqual([], missing)
        self.assertGreater(len(weights), 20)

    def test_measured_from_subunit(self):
        import datetime
        import io as io_mod
        import subunit
        t0 = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)

        def at(seconds):
            return t0 + datetime.timedelta(seconds=seconds)
        out = io_mod.BytesIO()
        stream = subunit.StreamResultToBytes(out)
        # worker-0: A (first: the median gap) 0-10, B after a 4 s gap
        # 14-20; worker-1: C after nothing 0-5, then A again after a 2 s
        # gap 7-9 (the most of A's measures counts).
        for worker, test_id, start, end in (
                ('worker-0', 'p.m.A.t1', 0, 6),
                ('worker-0', 'p.m.A.t2', 6, 10),
                ('worker-0', 'p.m.B.t', 14, 20),
                ('worker-1', 'p.m.C.t[id-x]', 0, 5),
                ('worker-1', 'p.m.A.t3', 7, 9)):
            stream.status(test_id=test_id, test_status='inprogress',
                          timestamp=at(start), test_tags={worker})
            stream.status(test_id=test_id, test_status='success',
                          timestamp=at(end), test_tags={worker})
        # Unfinished (a run cut off): not measured.
        stream.status(test_id='p.m.D.t', test_status='inprogress',
                      timestamp=at(21), test_tags={'worker-0'})
        out.seek(0)
        self.assertEqual({'p.m.A': 13.0, 'p.m.B': 10.0, 'p.m.C': 8.0},
                         phases.measure_weights([out]))

    def test_measured_per_phase(self):
        # The serial phase's worker-0 and the parallel phase's worker-0
        # are one tag: the first parallel class's gap (the time between
        # the phases) is not its own and counts as the median gap.
        import datetime
        import io as io_mod
        import subunit
        t0 = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
        out = io_mod.BytesIO()
        stream = subunit.StreamResultToBytes(out)
        for test_id, start, end in ((SERIAL, 0, 10), (PENDING, 40, 42),
                                    (LISTING, 44, 50)):
            for status, at in (('inprogress', start), ('success', end)):
                stream.status(test_id=test_id, test_status=status,
                              timestamp=t0 + datetime.timedelta(seconds=at),
                              test_tags={'worker-0'})
        out.seek(0)
        weights = phases.measure_weights([out])
        # The one gap of its own: LISTING's 2 s (the median).
        self.assertEqual(4.0, weights[phases.class_id(PENDING)])
        self.assertEqual(8.0, weights[phases.class_id(LISTING)])
        self.assertEqual(12.0, weights[phases.class_id(SERIAL)])
