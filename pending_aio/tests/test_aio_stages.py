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
"""The stages of the embedded cloud (pending_aio.sh and its users)."""

import io
import json
import os
import re
import stat
import sys
import threading
from unittest import mock

import fixtures

import pending_aio
from pending_aio.bench import runs as bench
from pending_aio.bench import suite as suitebench
from pending_aio import checks
from pending_aio import sh
from pending_aio.stages import bad_input
from pending_aio.stages import conformance
from pending_aio.stages import functional
from pending_aio.stages import plugin_legs
from pending_aio.stages import runner_stage
from pending_tempest_plugin.unit_tests import fakes


class StageTestCase(fakes.FileTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.EnvironmentVariable('AIO_DIR', self.tmp))
        self.useFixture(fixtures.EnvironmentVariable('FUNCTIONAL_T0', '100'))
        self.useFixture(fixtures.EnvironmentVariable('PYTHONPATH'))
        self.useFixture(fixtures.EnvironmentVariable('OS_CLIENT_CONFIG_FILE'))
        self.out = io.TextIOWrapper(io.BytesIO(), write_through=True)
        self.err = io.TextIOWrapper(io.BytesIO(), write_through=True)
        self.useFixture(fixtures.MockPatch('sys.stdout', self.out))
        self.useFixture(fixtures.MockPatch('sys.stderr', self.err))

    def printed(self, stream=None):
        stream = stream or self.out
        stream.flush()
        return stream.buffer.getvalue().decode()

    def exits(self, code, func, *args):
        exc = self.assertRaises(SystemExit, func, *args)
        self.assertEqual(code, exc.code)


class TestSh(StageTestCase):

    def test_stage_line_counts_from_functional_t0(self):
        self.assertEqual('== functional [42 s]: up',
                         sh.stage_line('up', now=142))

    def test_setup_exports_aio_dir_and_t0_and_drops_the_checkout(self):
        os.environ['PYTHONPATH'] = pending_aio.REPO + os.pathsep + '/x'
        self.useFixture(fixtures.EnvironmentVariable('FUNCTIONAL_T0'))
        sh.setup()
        self.assertEqual(self.tmp, os.environ['AIO_DIR'])
        self.assertTrue(os.environ['FUNCTIONAL_T0'].isdigit())
        self.assertEqual('/x', os.environ['PYTHONPATH'])
        # python -m pending_aio gets it back, with the cloud's clouds.yaml.
        env = sh.pending_aio_env()
        self.assertEqual(pending_aio.REPO + os.pathsep + '/x',
                         env['PYTHONPATH'])
        self.assertEqual(self.tmp + '/clouds.yaml',
                         env['OS_CLIENT_CONFIG_FILE'])
        self.assertEqual([self.tmp + '/venvs/tools/bin/python', '-m',
                          'pending_aio', 'smoke'],
                         sh.pending_aio_argv('smoke'))

    def test_aio_cmd(self):
        self.useFixture(fixtures.EnvironmentVariable('AIO_CMD', ''))
        self.assertEqual(os.path.join(pending_aio.REPO, 'tools', 'aio'),
                         sh.aio_cmd())
        os.environ['AIO_CMD'] = '/bin/fake-aio'
        self.assertEqual('/bin/fake-aio', sh.aio_cmd())

    def test_run_fails_the_stage_with_the_status(self):
        self.exits(3, sh.run, ['sh', '-c', 'exit 3'])
        self.assertEqual(3, sh.run(['sh', '-c', 'exit 3'], check=False))
        self.assertEqual(127, sh.run(['/no/such/command'], check=False))

    def test_tee_streams_and_keeps_the_status(self):
        log = os.path.join(self.tmp, 'tee.log')
        sh.echo('before')
        rc = sh.tee(log, ['sh', '-c', 'echo " - Passed: 2"; exit 4'])
        self.assertEqual(4, rc)
        self.assertEqual('before\n - Passed: 2\n', self.printed())
        with open(log) as f:
            self.assertEqual(' - Passed: 2\n', f.read())

    def test_failure_digest_names_each_failed_test_and_its_error(self):
        log = self.write('run.log', (
            '{0} pkg.tests.A.test_ok [1.0s] ... ok\n'
            '{1} pkg.tests.B.test_quota [9.1s] ... FAILED\n'
            '\nCaptured traceback:\n~~~~\n'
            '    Traceback (most recent call last):\n'
            '      File "x.py", line 3, in test_quota\n'
            '    raise self.failureException(msg)\n\n'
            '    AssertionError: ram quota: built on cn2\n'
            '  usage grew past the quota\n\n'
            'Captured pythonlogging:\n~~~~\n'
            '    AssertionError: in a log line, not the error\n'
            '{0} pkg.tests.C.test_gone [0.1s] ... FAILED\n'))
        self.assertEqual([b'FAILED pkg.tests.B.test_quota',
                          b'    AssertionError: ram quota: built on cn2',
                          b'    usage grew past the quota',
                          b'FAILED pkg.tests.C.test_gone'],
                         sh.failure_digest(log))
        sh.record_failures(log)
        sh.record_failures(self.write('clean.log', '{0} a ... ok\n'))
        with open(sh.path('logs', 'failed-tests.txt')) as f:
            self.assertEqual(['in %s:' % log, 'FAILED pkg.tests.B.test_quota'],
                             f.read().splitlines()[:2])

    def test_logs_directory_made_on_a_fresh_machine(self):
        # A fresh checkout has no $AIO_DIR/logs before its first `up`:
        # `tox -e conformance` writes the first leg's `up` log there.
        log = sh.path('logs', 'up.log')
        self.assertEqual(0, sh.run_to(log, ['sh', '-c', 'echo up']))
        with open(log) as f:
            self.assertEqual('up\n', f.read())
        self.assertEqual(0o755, os.stat(os.path.dirname(log)).st_mode & 0o777)
        log = sh.path('conformance', 'merged', 'report.txt')
        self.assertEqual(0, sh.tee(log, ['true']))
        self.assertTrue(os.path.isfile(log))

    def test_grep(self):
        log = self.write('log', 'a = 1\nb = 2\n')
        self.assertEqual(0, sh.grep_q('^b = 2$', log))
        self.assertEqual(1, sh.grep_q('^b = 3$', log))
        self.assertEqual(2, sh.grep_q('x', log + '.missing'))
        self.assertIn('No such file', self.printed(self.err))
        self.assertEqual([b'a = 1'], sh.grep('a = ', log, fixed=True))
        self.exits(1, sh.need, 'c', log)

    def test_sed(self):
        conf = self.write('tempest.conf', '[nova_conformance]\n'
                          'pending_state_enabled = false\nx = 1\n')
        sh.sed(conf, conf, sh.delete_line('pending_state_enabled'),
               (r'^\[nova_conformance\]$', '[nova_conformance]\ny = 2'))
        with open(conf) as f:
            self.assertEqual('[nova_conformance]\ny = 2\nx = 1\n', f.read())
        # A copy of a tempest.conf holds its passwords: it gets the
        # original's mode whatever the umask, a new file as an old one.
        os.chmod(conf, 0o600)
        old = self.write('old.conf', 'x')
        os.chmod(old, 0o644)
        umask = os.umask(0o022)
        self.addCleanup(os.umask, umask)
        for copy in (os.path.join(self.tmp, 'new.conf'), old):
            sh.sed(conf, copy)
            self.assertEqual(0o600, stat.S_IMODE(os.stat(copy).st_mode))

    def test_run_stage_and_its_trap(self):
        seen = []

        def body():
            sh.fail('functional', 'broken', 5)
        trap = sh.Trap(lambda rc: seen.append(rc))
        self.assertEqual(5, sh.run_stage(body, trap))
        self.assertEqual([5], seen)
        self.assertEqual('functional: broken\n', self.printed(self.err))
        # A failing command of the trap gives its status (bash's errexit).
        trap = sh.Trap(lambda rc: sh.run(['sh', '-c', 'exit 7']))
        self.assertEqual(7, sh.run_stage(lambda: None, trap))
        # A cleared trap does not run; a bug is a failure.
        trap = sh.Trap(lambda rc: seen.append('no'))
        trap.clear()
        self.assertEqual(1, sh.run_stage(lambda: 1 / 0, trap))
        self.assertEqual([5], seen)


class TestPluginLegs(StageTestCase):

    def test_leg_selection(self):
        self.useFixture(fixtures.EnvironmentVariable('FUNCTIONAL_LEGS', ''))
        self.assertTrue(all(plugin_legs.selected(leg)
                            for leg in plugin_legs.LEGS))
        os.environ['FUNCTIONAL_LEGS'] = 'mutants'
        self.assertEqual(['mutants'], [leg for leg in plugin_legs.LEGS
                                       if plugin_legs.selected(leg)])
        self.assertFalse(plugin_legs.selected('pending', 'pending-off'))
        self.assertTrue(plugin_legs.selected('stock', 'stock  profiles'))
        # In the order they run, whatever the order of the words: the
        # mutants on the default cloud, the pending-off leg after the
        # profiles leg (its `up` sets every option it needs), the stock leg
        # last (it may purge).
        self.assertEqual(['mutants', 'profiles', 'pending-off', 'stock'],
                         plugin_legs.chosen('stock mutants pending-off '
                                            'profiles'))
        self.assertEqual(['pending-off', 'stock'],
                         plugin_legs.chosen('stock pending-off'))
        # A typo runs nothing silently no more: it is an error.
        e = self.assertRaises(SystemExit, plugin_legs.selected, 'stock',
                              'stock profile')
        self.assertEqual(2, e.code)

    def test_batches(self):
        self.assertEqual(
            [('admin_only', ['a', 'b']), ('unknown_only', ['c'])],
            list(plugin_legs.batches('admin_only a  b\n unknown_only c\n')))
        self.assertTrue(plugin_legs.batch_selected(12, ''))
        self.assertTrue(plugin_legs.batch_selected(2, '2 3 4 17'))
        self.assertFalse(plugin_legs.batch_selected(1, '2 3 4 17'))
        self.assertFalse(plugin_legs.batch_selected(7, '17'))

    def test_plugin_run_command(self):
        self.assertEqual(
            [self.tmp + '/venvs/tools/bin/python', '-m',
             'pending_tempest_plugin.runner.phases', '--tempest',
             self.tmp + '/bin/tempest', '--concurrency', '2', '--regex', 'x'],
            plugin_legs.plugin_argv('--regex', 'x'))

    def test_a_wrong_claim_must_fail_saying_why(self):
        log = self.write('expect.log', 'x\nFAIL: but the API advertises 2.1'
                         '\nagain but the API advertises\n')
        self.exits(1, plugin_legs.judge_wrong_claim, 'stock', 0, log, 'x')
        self.assertIn('functional: tests passed although tempest.conf '
                      'misdescribes the cloud (stock); see %s' % log,
                      self.printed(self.err))
        self.exits(1, plugin_legs.judge_wrong_claim, 'stock', 1, log, 'nope')
        self.assertIn("the failure of stock does not say 'nope'",
                      self.printed(self.err))
        plugin_legs.judge_wrong_claim('stock', 1, log,
                                      'but the API advertises')
        self.assertEqual('FAIL: but the API advertises 2.1\n',
                         self.printed())

    def test_wrong_claims_run_at_once_each_in_a_workspace_of_its_own(self):
        # Two wrong claims of one workspace: each runs in its own copy
        # (its stestr repository, its tempest.log), with the edited
        # tempest.conf at the source's mode; both run before either is
        # judged, and they are judged in order.
        ws = os.path.join(self.tmp, 'tempest')
        os.makedirs(os.path.join(ws, 'etc'))
        self.write('tempest/.stestr.conf', '[DEFAULT]\ntest_path=x\n')
        conf = self.write('tempest/etc/tempest.conf',
                          '[DEFAULT]\nlog_dir = %s/logs\n[nova_conformance]'
                          '\npending_state_enabled = false\n' % ws)
        os.chmod(conf, 0o600)
        os.makedirs(os.path.join(self.tmp, 'logs'))
        started, events = threading.Barrier(2, timeout=10), []

        def run_to(log, argv, both, check, cwd):
            started.wait()   # both run at once, or this times out
            events.append(('ran', os.path.basename(cwd)))
            with open(log, 'w') as f:
                f.write('t ... FAIL: %s\n' % os.path.basename(cwd))
            return 1
        self.useFixture(fixtures.MockPatchObject(sh, 'run_to', run_to))
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs, 'judge_wrong_claim',
            lambda name, rc, log, pattern: events.append(
                ('judged', name, rc))))
        edit = (r'^pending_state_enabled = .*',
                'pending_state_enabled = true')
        claims = [plugin_legs.WrongClaim(name, [edit], 'regex', name)
                  for name in ('a', 'b')]
        plugin_legs.expect_fail_together(claims)
        self.assertEqual({('ran', 'a'), ('ran', 'b')}, set(events[:2]))
        self.assertEqual([('judged', 'a', 1), ('judged', 'b', 1)],
                         events[2:])
        for name in ('a', 'b'):
            own = os.path.join(self.tmp, 'wrong-claims', name)
            with open(os.path.join(own, 'etc', 'tempest.conf')) as f:
                self.assertEqual(
                    '[DEFAULT]\nlog_dir = %s/logs\n[nova_conformance]\n'
                    'pending_state_enabled = true\n' % own, f.read())
            self.assertEqual(0o600, stat.S_IMODE(os.stat(os.path.join(
                own, 'etc', 'tempest.conf')).st_mode))
            self.assertTrue(os.path.isfile(os.path.join(own,
                                                        '.stestr.conf')))
        # The source workspace is left as it was.
        with open(conf) as f:
            self.assertIn('pending_state_enabled = false', f.read())

    def test_a_wrong_claim_whose_run_broke_fails_naming_it(self):
        # No workspace to copy: the thread's error is the stage's failure.
        claim = plugin_legs.WrongClaim('x', [], 'regex', 'p',
                                       ws=os.path.join(self.tmp, 'none'))
        self.exits(1, plugin_legs.expect_fail_together, [claim])
        self.assertIn('the run of the wrong claim x did not complete',
                      self.printed(self.err))

    def test_skips_name_options(self):
        log = self.write('ok.log', 't1 ... ok\nt2 ... SKIPPED: [nova_'
                         'conformance] pending_state_enabled is False\n')
        plugin_legs.skips_name_options(log)
        log = self.write('bad.log', 't3 ... SKIPPED: no reason\n')
        self.exits(1, plugin_legs.skips_name_options, log)
        self.assertEqual('functional: skips that do not name an option:\n'
                         't3 ... SKIPPED: no reason\n',
                         self.printed(self.err))

    def test_quota_tests_passed(self):
        line = ('x.Cell0RebuildQuotaTest.test_rebuild_quota_recheck_%d ... '
                'ok\n')
        log = self.write('q.log', ''.join(line % i for i in range(3)))
        plugin_legs.quota_tests_passed('db', log)
        log = self.write('q2.log', line % 1 + 'test_rebuild_quota_recheck_2'
                         ' ... SKIPPED: [x] y\n')
        self.exits(1, plugin_legs.quota_tests_passed, 'placement', log)
        self.assertEqual('functional: 1 of the 3 quota recheck tests passed '
                         'with quota counting placement; see %s\n' % log,
                         self.printed(self.err))


class TestOtherStages(StageTestCase):

    RECAP = ('PLAY RECAP ****\nlocalhost : ok=92   changed=%d    '
             'unreachable=0    failed=0    skipped=7\n')

    def test_no_change_reads_the_one_recap(self):
        log = self.write('up.log', 'changed: [localhost]\n' + self.RECAP % 0)
        plugin_legs.no_change(log, 'changed')
        log = self.write('up.log', 'changed: [localhost]\n' + self.RECAP % 2)
        self.exits(1, plugin_legs.no_change, log, 'it changed')
        self.assertIn('functional: it changed', self.printed(self.err))
        # No recap (the play stopped early), or two: not converged.
        self.exits(1, plugin_legs.no_change, self.write('up.log', 'x\n'),
                   'm')
        self.exits(1, plugin_legs.no_change,
                   self.write('up.log', (self.RECAP % 0) * 2), 'm')

    def test_tempest_failing_beside_the_converge_check(self):
        # Tempest fails while the SSH up runs: the probe is stopped, the
        # check ends (never killed half way), what it saw is printed and
        # the stage fails with Tempest's status.
        ran = []
        started = threading.Event()

        def fake_run(checks, log, argv):
            ran.append(argv[1])
            started.set()
            checks.cancel.wait(5)   # still running when Tempest fails
            with open(log, 'w') as f:
                f.write(self.RECAP % 0)
            return 0

        def tempest(*args, **kwargs):
            started.wait(5)
            raise SystemExit(3)

        probe = mock.Mock()
        self.useFixture(fixtures.MockPatchObject(
            functional.ConvergeChecks, '_run', fake_run))
        self.useFixture(fixtures.MockPatchObject(sh, 'run', tempest))
        self.useFixture(fixtures.MockPatchObject(
            sh, 'start', return_value=probe))
        stop = self.useFixture(fixtures.MockPatchObject(sh, 'stop')).mock
        self.write('logs/x', '')
        self.exits(3, functional.upstream_subset_and_converge_checks)
        self.assertEqual(['ssh-converge'], ran)
        stop.assert_called_once_with(probe)
        self.assertIn('-- ssh-converge (started beside the upstream subset) '
                      'exited 0', self.printed())

    def test_converge_check_judged_after_the_runner_stage(self):
        # The SSH up goes on beside the runner stage: judged once the
        # stage has ended; a stage that fails stops the next up, waits for
        # the running one and prints what it saw, without judging it.
        order = []

        class Converge(object):
            def __init__(self):
                self.cancel = threading.Event()

            def is_alive(self):
                return False

            def join(self):
                order.append('join')

            def judge(self):
                order.append('judge')

            def report(self):
                order.append('report')

        converge = Converge()
        functional.beside_converge_checks(
            converge, lambda: order.append('runner'))
        self.assertEqual(['runner', 'join', 'judge'], order)
        del order[:]

        def failing():
            order.append('runner')
            raise SystemExit(4)

        converge = Converge()
        self.exits(4, functional.beside_converge_checks, converge, failing)
        self.assertEqual(['runner', 'join', 'report'], order)

    def test_the_runner_waits_for_ssh_keygen(self):
        # The SSH up installs openssh-client: the runner stage starts once
        # ssh-keygen is there, or once that up has ended without it.
        found = iter([None, None, '/usr/bin/ssh-keygen'])
        self.useFixture(fixtures.MockPatchObject(
            functional.shutil, 'which', lambda name: next(found)))
        alive = mock.Mock(is_alive=mock.Mock(return_value=True))
        functional.wait_for_ssh_keygen(alive, interval=0)
        self.assertEqual(2, alive.is_alive.call_count)
        self.useFixture(fixtures.MockPatchObject(
            functional.shutil, 'which', return_value=None))
        ended = mock.Mock(is_alive=mock.Mock(return_value=False))
        functional.wait_for_ssh_keygen(ended, interval=0)
        self.assertEqual(1, ended.is_alive.call_count)

    def test_a_stage_failed_before_the_check_starts_no_ssh(self):
        ran = []
        checks = functional.ConvergeChecks()
        checks.cancel.set()
        self.useFixture(fixtures.MockPatchObject(
            functional.ConvergeChecks, '_run',
            lambda c, log, argv: ran.append(argv[1]) or 0))
        checks.run()
        self.assertEqual([], ran)
        self.assertEqual({}, checks.rcs)

    def test_a_missing_command_is_exit_127(self):
        checks = functional.ConvergeChecks()
        log = self.write('logs/ssh-converge.log', '')
        self.assertEqual(127, checks._run(log, [self.tmp + '/no-such']))
        with open(log) as f:
            self.assertIn('no-such: No such file', f.read())
        self.useFixture(fixtures.MockPatchObject(
            sh, 'aio_cmd', return_value=self.tmp + '/no-such'))
        check = plugin_legs.CheckModeUp()
        check.run()
        self.assertEqual(127, check.rc)

    def test_converge_check_judged(self):
        checks = functional.ConvergeChecks()
        self.write('logs/ssh-converge.log', 'ssh-converge: converged\n')
        checks.rcs = {'ssh': 0}
        checks.judge()
        self.assertIn('ssh-converge: converged', self.printed())
        checks.rcs = {'ssh': 1}
        self.exits(1, checks.judge)
        self.assertIn('ssh-converge failed (exit 1)', self.printed(self.err))

    def test_check_mode_judged(self):
        check = plugin_legs.CheckModeUp()
        self.write('logs/up-check.log', self.RECAP % 0)
        check.rc = 0
        check.judge()
        self.assertIn('reports no change', self.printed())
        check.rc = 2
        self.exits(1, check.judge)
        self.assertIn('up --check --diff failed (exit 2)',
                      self.printed(self.err))
        self.write('logs/up-check.log', 'changed: [localhost]\n'
                   + self.RECAP % 1)
        check.rc = 0
        self.exits(1, check.judge)
        self.assertIn('up --check --diff would change something',
                      self.printed(self.err))

    def test_check_mode_beside_the_wrong_claims_judged_after_them(self):
        events = []

        class Check(object):
            def start(self):
                events.append('check started')

            def join(self):
                events.append('check joined')

            def judge(self):
                events.append('check judged')
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs, 'CheckModeUp', Check))

        class Claim(object):
            name = 'c'

            def run(self):
                events.append('claim ran')

            def judge(self):
                events.append('claim judged')
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs, 'clean', lambda: events.append('clean')))
        self.useFixture(fixtures.EnvironmentVariable(
            'FUNCTIONAL_CHECK_MODE', '1'))
        plugin_legs.wrong_claims([Claim()])
        self.assertEqual(['check started', 'claim ran', 'check joined',
                          'claim judged', 'check judged', 'clean'], events)
        del events[:]
        os.environ['FUNCTIONAL_CHECK_MODE'] = '0'
        plugin_legs.wrong_claims([Claim()])
        self.assertEqual(['claim ran', 'claim judged', 'clean'], events)

    def test_wrong_claims_beside_the_pending_off_run(self):
        # They start before the leg's run and have ended before its report
        # (which looks for leaks); judged after it.
        events = []
        self.useFixture(fixtures.EnvironmentVariable(
            'FUNCTIONAL_CHECK_MODE', '0'))
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs, 'plane_workspace', lambda leg: self.tmp))
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs, 'tee_plugin',
            lambda *a, **k: events.append('leg run')))
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs, 'run_together',
            lambda claims: events.append('claims ran %d' % len(claims))))
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs.WrongClaim, 'judge',
            lambda claim: events.append('judged ' + claim.name)))
        for name in ('skips_name_options', 'quota_tests_passed'):
            self.useFixture(fixtures.MockPatchObject(
                plugin_legs, name, lambda *a, **k: None))
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs, 'report',
            lambda name, ws=None: events.append('report')))
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs, 'clean', lambda: events.append('clean')))
        for name in ('stage', 'echo'):
            self.useFixture(fixtures.MockPatchObject(
                sh, name, lambda *a, **k: None))
        plugin_legs.leg_pending_off(plugin_legs.profile_wrong_claims())
        self.assertEqual('report', events[2])
        self.assertEqual({'leg run', 'claims ran 4'}, set(events[:2]))
        self.assertEqual(['judged profile-services', 'judged profile',
                          'judged quota-services', 'judged pending-on',
                          'clean'], events[3:])

    def test_runner_expectation(self):
        log = self.write('run.log', 'a\nVERDICT: PASS (explore)\n')
        runner_stage.judge(0, 0, log, runner_stage.VERDICT_PASS, ['run'])
        self.assertEqual('VERDICT: PASS (explore)\n', self.printed())
        self.exits(1, runner_stage.judge, 1, 0, log, 'x', ['run', '-v'])
        self.assertEqual("functional-runner: 'pc run -v' exited 0, not 1; "
                         "see %s\n" % log, self.printed(self.err))

    def test_secret_in_an_artifact(self):
        self.write('out/a/report.txt', 'no secret here')
        self.assertEqual([], checks.files_holding(self.tmp, ['s3cret']))
        self.write('out/b.json', '{"x": "s3cret"}')
        os.symlink(self.tmp + '/out/b.json', self.tmp + '/out/link')
        self.assertEqual([self.tmp + '/out/b.json'],
                         checks.files_holding(self.tmp, ['s3cret']))

    def test_bad_input_prints_the_first_line_indented(self):
        self.assertEqual(b'   port 5000', bad_input.first_line(
            b'  port 5000'))
        self.assertEqual(300, len(bad_input.first_line(b'x' * 400)))
        log = self.write('up.log', 'fatal: port 5000 in use\n')
        self.exits(1, bad_input.judge, 'port', 2, log, ['port 5000',
                                                        'keystone'])
        self.assertIn("up failed (port) but did not say 'keystone'",
                      self.printed(self.err))

    def test_conformance_run_command(self):
        self.assertEqual(
            [self.tmp + '/venvs/tools/bin/python', '-m',
             'pending_tempest_plugin.runner.cli', 'run', '--workspace',
             self.tmp + '/tempest', '--mode', 'explore', '--leg', 'l',
             '--output', 'o', '--regex', 'x'],
            conformance.run_argv('l', 'o', 'explore', ['--regex', 'x']))

    def test_conformance_legs_select_what_they_decide(self):
        plugin = 'pending_tempest_plugin.tests.api.compute.'
        ids = {
            'up': plugin + 'test_host_status.HostStatusTest.'
                           'test_up_visibility[id-1]',
            'precedence': plugin + 'test_host_status_listing.'
                                   'HostStatusListingStoppedComputeTest.'
                                   'test_disabled_and_stopped[id-2,slow]',
            'quota': plugin + 'test_cell0_rebuild.Cell0RebuildQuotaTest.'
                              'test_rebuild_quota_recheck_ram[id-3]',
            'pending': plugin + 'test_pending_state.PendingStateOffTest.'
                                'test_option_off_error_at_every_'
                                'microversion[id-4]',
        }
        chosen = [sorted(k for k, i in ids.items()
                         if re.search(leg.regex, i))
                  for leg in conformance.LEGS]
        # Every host_status test runs on the default cloud only (its
        # profile endpoints show the other profiles).
        self.assertEqual([['pending', 'precedence', 'quota', 'up'],
                          ['pending', 'quota']],
                         chosen)
        self.assertEqual('', conformance.LEGS[0].plane)

    def test_no_plane_leg_runs_a_serial_class(self):
        # A plane leg starts beside the default leg's parallel phase, with
        # no serial phase of its own to wait for: a serial class there (a
        # compute stopped, a cell down) would disturb the tests beside it.
        import importlib
        for leg in conformance.LEGS:
            if not leg.plane:
                continue
            for class_id in leg.classes:
                module, name = class_id.rsplit('.', 1)
                cls = getattr(importlib.import_module(module), name)
                self.assertFalse(getattr(cls, '_serial', False),
                                 '%s: %s' % (leg.name, class_id))

    def test_leg_claims_follow_its_variables(self):
        # Every option is checked: the leg's value, or the default cloud's.
        services = (r'^host_status_profile_services = admin_or_owner:'
                    r'compute\-admin_or_owner,unknown_only:compute\-'
                    r'unknown_only$')
        quota = (r'^quota_counting_services = unified_limits:compute\-'
                 r'unified\-limits$')
        self.assertEqual(
            [r'^host_status_policy_profile = admin_only$',
             r'^quota_counting = db$', r'^quota_recheck = false$',
             r'^pending_state_enabled = true$', services, quota],
            conformance.claimed(''))
        # The planes that differ in their quota counting alone: none when
        # the cloud counts as the plane unified-limits does; the plane
        # pending-off when the cloud's PENDING state is its.
        self.assertNotIn(quota, conformance.claimed(
            'aio_quota_counting=unified_limits'))
        self.assertEqual(
            r'^quota_counting_services = placement:compute\-pending\-off$',
            conformance.claimed('aio_use_pending_state=false')[-1])
        # A plane's workspace: its options, its endpoint, no other
        # profile's.
        self.assertEqual(
            [r'^host_status_policy_profile = admin_only$',
             r'^quota_counting = placement$', r'^quota_recheck = true$',
             r'^pending_state_enabled = false$',
             r'^catalog_type = compute\-pending\-off$'],
            conformance.claimed('', conformance.PENDING_OFF_LEG.plane))
        self.assertEqual(
            [r'^host_status_policy_profile = admin_only$',
             r'^quota_counting = unified_limits$',
             r'^quota_recheck = false$',
             r'^pending_state_enabled = true$',
             r'^catalog_type = compute\-unified\-limits$'],
            conformance.claimed('', 'unified-limits'))
        # A cloud whose own profile is another: the endpoints of the rest.
        self.assertEqual(
            r'^host_status_profile_services = unknown_only:compute\-'
            r'unknown_only$', conformance.claimed(
                'aio_host_status_policy_profile=admin_or_owner')[-2])
        # Booleans as the seed writes them.
        self.assertIn(r'^pending_state_enabled = false$',
                      conformance.claimed('aio_use_pending_state=False'))
        # A variable whose tempest.conf option is unknown gets no silent
        # pass.
        self.assertRaises(ValueError, conformance.claimed, 'aio_other=1')

    def test_default_leg_must_name_the_other_endpoints(self):
        # Without them the verdict would decide the other profiles' rows
        # and RB-11 under unified limits nowhere, and still pass.
        conf = conformance.tempest_conf(conformance.DEFAULT_LEG)
        os.makedirs(os.path.dirname(conf))
        profiles, quota = [
            p for p in conformance.claimed('')
            if p.startswith(('^host_status_profile_services ',
                             '^quota_counting_services '))]
        lines = ['[nova_conformance]',
                 'host_status_profile_services = admin_or_owner:compute-'
                 'admin_or_owner,unknown_only:compute-unknown_only',
                 'quota_counting_services = unified_limits:compute-'
                 'unified-limits']
        for kept, missing in ((lines, []), (lines[:2], [quota]),
                              (lines[:1], [profiles, quota])):
            with open(conf, 'w') as f:
                f.write('\n'.join(kept) + '\n')
            self.assertEqual(missing,
                             conformance.unclaimed(conformance.DEFAULT_LEG))
        # With full, every claim.
        self.assertEqual(6, len(conformance.unclaimed(
            conformance.DEFAULT_LEG, full=True)))

    def test_seed_quota_services_are_conformance_quota_services(self):
        # The seed's Jinja (aio_seed defaults), rendered as Ansible would
        # over group_vars' planes, and conformance.quota_services agree
        # for every counting mode and PENDING state of nova's own control
        # services.
        import jinja2
        import yaml
        playbooks = os.path.join(os.path.dirname(pending_aio.__file__),
                                 '..', 'playbooks')
        with open(os.path.join(playbooks, 'roles', 'aio_seed', 'defaults',
                               'main.yaml')) as f:
            seed = yaml.safe_load(f)
        with open(os.path.join(playbooks, 'group_vars', 'all.yaml')) as f:
            cloud = yaml.safe_load(f)
        planes = [dict(p, service_type='compute-' + p['name'])
                  for p in cloud['aio_nova_planes']]
        env = jinja2.Environment()
        env.filters['bool'] = lambda v: str(v).lower() in (
            'true', 'yes', '1', 'on')
        template = env.from_string(
            seed['aio_tempest_nova_conformance']['quota_counting_services'])
        for mode in ('db', 'placement', 'unified_limits'):
            for pending in ('true', 'false'):
                rendered = template.render(
                    aio_control_planes={'planes': planes},
                    aio_quota_counting=mode, aio_use_pending_state=pending)
                self.assertEqual(
                    conformance.quota_services(conformance._values(
                        'aio_quota_counting=%s aio_use_pending_state=%s'
                        % (mode, pending))), rendered.strip(),
                    (mode, pending))

    def test_leg_claims_are_the_seeds_options(self):
        # Each variable's option and default are the seed's: its
        # tempest.conf options (aio_seed defaults) and the cloud's defaults
        # (group_vars).
        import yaml
        roles = os.path.join(os.path.dirname(pending_aio.__file__), '..',
                             'playbooks')
        with open(os.path.join(roles, 'roles', 'aio_seed', 'defaults',
                               'main.yaml')) as f:
            seed = f.read()
        with open(os.path.join(roles, 'group_vars', 'all.yaml')) as f:
            cloud = yaml.safe_load(f)
        for variable, (option, default) in conformance.CLAIMED_BY.items():
            self.assertRegex(
                seed, r'(?m)^ *%s: .*\b%s\b' % (option, variable))
            self.assertEqual(default, str(cloud[variable]).lower())
        # The profile endpoints the claims expect are the cloud's.
        self.assertEqual(list(conformance.PROFILE_APIS),
                         cloud['aio_host_status_profile_apis'])
        # So are the control planes and their options.
        planes = dict((p['name'], p) for p in cloud['aio_nova_planes'])
        self.assertEqual(sorted(conformance.PLANES), sorted(planes))
        for name, variables in conformance.PLANES.items():
            want = dict(item.partition('=')[::2]
                        for item in variables.split())
            self.assertEqual(
                want.get('aio_use_pending_state', 'true'),
                str(planes[name]['use_pending_state']).lower())
            self.assertEqual(want.get('aio_quota_counting', 'db'),
                             planes[name]['quota_counting'])
            self.assertEqual(
                want.get('aio_quota_recheck',
                         str(cloud['aio_quota_recheck']).lower()),
                str(planes[name].get('recheck_quota',
                                     cloud['aio_quota_recheck'])).lower())
        # Each plane serves a leg or the default cloud's other quota
        # counting mode (quota_counting_services, as the seed claims it).
        self.assertRegex(
            seed, r'(?m)^  quota_counting_services: ')
        self.assertEqual(
            sorted(conformance.PLANES),
            sorted([leg.plane for leg in conformance.LEGS if leg.plane]
                   + ['unified-limits']))
        self.assertEqual(
            'unified_limits:compute-unified-limits',
            conformance.quota_services(conformance._values('')))

    def test_functional_partial_legs_are_the_conformance_legs(self):
        # The functional stage's pending-off run uses the conformance
        # leg's plane (its workspace, claims checked) and regex, and its
        # whole suite the default leg's workspace, claims checked: one
        # source; no `up`.
        needs, runs = [], []
        self.useFixture(fixtures.MockPatchObject(
            sh, 'run_to', lambda log, argv, env: self.fail('an up')))
        self.useFixture(fixtures.MockPatchObject(
            conformance, 'unclaimed', lambda leg, full: needs.append(
                (leg.plane, full)) or []))
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs, 'tee_plugin', lambda log, *args, **kw: runs.append(
                (list(args), kw.get('cwd')))))
        for name in ('stage', 'echo'):
            self.useFixture(fixtures.MockPatchObject(
                sh, name, lambda *a, **k: None))
        for name in ('switch_profile', 'plant_orphan_trait', 'run_plugin',
                     'report', 'quota_tests_passed',
                     'wrong_claims', 'clean', 'skips_name_options',
                     'placement_log_size', 'trait_writes_checked'):
            self.useFixture(fixtures.MockPatchObject(
                plugin_legs, name, lambda *a, **k: None))
        self.useFixture(fixtures.MockPatchObject(
            plugin_legs, 'WrongClaimsBeside', mock.MagicMock()))
        leg = conformance.PENDING_OFF_LEG
        plugin_legs.leg_pending_off()
        self.assertEqual([(leg.plane, True)], needs)
        self.assertEqual([(conformance.leg_args(leg),
                           self.tmp + '/tempest-' + leg.plane)], runs)
        del needs[:], runs[:]
        plugin_legs.leg_profiles()
        self.assertEqual([('', True)], needs)
        self.assertEqual([(['--regex', plugin_legs.PLUGIN_REGEX], None)],
                         runs)

    def fake_legs(self, started, merged, missing=None, up=0):
        """Fake legs: each run's (workspace, mode, args, serial done before).

        Each run writes its report; the default leg's creates the
        serial-done file; merge arguments to MERGED.  ``missing``: plane ->
        claims its tempest.conf lacks.
        """
        done = os.path.join(self.tmp, 'conformance', 'serial-done')
        tc = self

        class Proc(object):
            def __init__(self, argv, env=None, **kwargs):
                ws = argv[argv.index('--workspace') + 1]
                out = argv[argv.index('--output') + 1]
                mode = argv[argv.index('--mode') + 1]
                started.append((os.path.basename(ws), mode,
                                argv[argv.index('--leg') + 1:],
                                os.path.exists(done)))
                tc.assertEqual(tc.tmp + '/clouds.yaml',
                               env['OS_CLIENT_CONFIG_FILE'])
                os.makedirs(out)
                with open(os.path.join(out, 'report.json'), 'w') as f:
                    f.write('{}')
                if '--serial-done' in argv:
                    with open(argv[argv.index('--serial-done') + 1],
                              'w') as f:
                        f.write('done')

            def poll(self):
                return 0

            def wait(self):
                return 0
        self.useFixture(fixtures.MockPatchObject(sh, 'start', Proc))
        self.useFixture(fixtures.MockPatchObject(
            conformance, 'up', lambda variables, log, check, shown=False: up))
        self.useFixture(fixtures.MockPatchObject(
            conformance, 'up_inputs', lambda: None))
        self.useFixture(fixtures.MockPatchObject(
            conformance, 'unclaimed',
            lambda leg: (missing or {}).get(leg.plane, [])))
        self.useFixture(fixtures.MockPatchObject(
            conformance, 'leg_name', lambda claims: os.path.basename(
                claims).replace('.yaml', '')))
        self.useFixture(fixtures.MockPatchObject(
            sh, 'tee', lambda path, argv: merged.append(argv) or 0))

    def test_conformance_one_up_then_the_others_after_the_serial_phase(self):
        # No leg switches the cloud: one `up`; the default leg starts
        # first and the others once its serial phase has ended, each on
        # its plane's workspace; the merge takes the order of LEGS.
        started, merged = [], []
        self.fake_legs(started, merged)
        self.exits(0, conformance.all_legs, 'certify')
        done = self.tmp + '/conformance/serial-done'
        self.assertEqual(
            [('tempest', 'certify', False),
             ('tempest-pending-off', 'explore', True)],
            [(ws, mode, serial) for ws, mode, _, serial in started])
        leg = conformance.PENDING_OFF_LEG
        self.assertEqual(
            ['claims', '--output', self.tmp + '/conformance/claims',
             '--regex', conformance.DEFAULT_LEG.regex, '--serial-done',
             done], started[0][2])
        self.assertEqual(['--regex', leg.regex, '--weights', leg.weights],
                         started[1][2][3:])
        self.assertTrue(os.path.isfile(leg.weights))
        self.assertEqual(
            [self.tmp + '/conformance/%s/report.json' % name for name in
             ('claims', 'claims-pending-off')],
            merged[0][-2:])
        self.assertFalse(os.path.exists(done))
        with open(self.tmp + '/conformance/merged/legs.json') as f:
            self.assertEqual(
                ['claims', 'claims-pending-off', 'verdict'],
                [leg['leg'] for leg in json.load(f)])

    def test_conformance_a_leg_without_its_claims_fails_alone(self):
        # The other legs still run and merge; the verdict fails naming it.
        started, merged = [], []
        self.fake_legs(started, merged, missing={
            'pending-off': ['^quota_counting = placement$']})
        self.exits(2, conformance.all_legs, 'explore')
        self.assertEqual(['tempest'], [ws for ws, _, _, _ in started])
        self.assertEqual(1, len([a for a in merged[0]
                                 if a.endswith('report.json')]) - 1)
        self.assertIn('a leg could not run: pending-off: %s does not '
                      'claim ^quota_counting = placement$'
                      % conformance.tempest_conf(
                          conformance.PENDING_OFF_LEG),
                      self.printed(self.err))

    def test_conformance_up_only_when_needed(self):
        # No `up` when the last verdict's `up` converged the cloud from the
        # same inputs and every program answers; any other `up` forgets.
        ups, status = [], [0]
        os.makedirs(self.tmp + '/state')
        self.useFixture(fixtures.MockPatchObject(
            conformance, 'up',
            lambda variables, log, check, shown=False: ups.append(
                variables) or 0))
        self.useFixture(fixtures.MockPatchObject(
            sh, 'run', lambda argv, check, **kw: status[0]))
        self.useFixture(fixtures.MockPatchObject(
            conformance, 'up_inputs', lambda: 'h1'))
        self.assertIn('no verdict', conformance.up_needed('h1'))
        conformance.verdict_up()
        self.assertEqual([''], ups)
        self.assertIsNone(conformance.up_needed('h1'))
        conformance.verdict_up()
        self.assertEqual([''], ups)
        self.assertIn('changed', conformance.up_needed('h2'))
        status[0] = 1
        self.assertIn('does not run or answer', conformance.up_needed('h1'))
        conformance.verdict_up()
        self.assertEqual(['', ''], ups)
        self.assertIn('unknown', conformance.up_needed(None))
        from pending_aio.cloud import control as cloud
        cloud.forget_up()
        self.assertFalse(os.path.exists(cloud.up_record()))
        # The checkout's inputs: a hash that the variables change.
        self.useFixture(fixtures.MockPatchObject(
            conformance, 'up_inputs', self.real_up_inputs))
        first = conformance.up_inputs()
        self.useFixture(fixtures.EnvironmentVariable('AIO_EXTRA_VARS', 'x=1'))
        self.assertNotEqual(first, conformance.up_inputs())

    real_up_inputs = staticmethod(conformance.up_inputs)

    def test_conformance_up_that_fails_runs_no_leg(self):
        started, merged = [], []
        self.fake_legs(started, merged, up=4)
        self.exits(2, conformance.all_legs, 'explore')
        self.assertEqual([], started)
        self.assertIn('`up` failed (exit 4)', self.printed(self.err))

    def test_bench_verdicts_reports_every_failure_and_fails(self):
        # Run 1 passes; run 2 fails a row; run 3 gives no merged verdict.
        keep = os.path.join(self.tmp, 'keep')
        os.makedirs(keep)
        merged = os.path.join(self.tmp, 'conformance', 'merged')
        results = iter([
            (0, {'verdict': {'lines': ['VERDICT: PASS'], 'reasons': []},
                 'requirements': [{'id': 'HS-06', 'outcome': 'pass'}]}),
            (1, {'verdict': {'lines': ['VERDICT: FAIL'],
                             'reasons': ['1 requirement(s) failed: HS-06']},
                 'requirements': [{'id': 'HS-06', 'outcome': 'fail',
                                   'detail': 'expected UNKNOWN\nmore',
                                   'leg': 'l2'}]}),
            (2, None)])

        def run_to(log, argv, **kwargs):
            self.assertEqual([sh.aio_cmd(), 'conformance'], argv)
            rc, report = next(results)
            with open(log, 'w') as f:
                f.write('`up` failed\n')
            if report is not None:
                os.makedirs(merged)
                with open(os.path.join(merged, 'report.json'), 'w') as f:
                    json.dump(report, f)
                with open(os.path.join(merged, 'legs.json'), 'w') as f:
                    json.dump([{'leg': 'l2', 'up_seconds': 1.0,
                                'run_seconds': 2.0, 'exit': rc},
                               {'leg': 'l3', 'up_seconds': 1.0,
                                'run_seconds': 0.0, 'exit': 3 * rc}], f)
            return rc
        self.useFixture(fixtures.MockPatchObject(sh, 'run_to', run_to))
        os.environ['CONFORMANCE_LEGS'] = 'default'
        self.exits(1, bench.bench_verdicts, 3, keep)
        self.assertNotIn('CONFORMANCE_LEGS', os.environ)
        out = self.printed()
        self.assertIn('CONFORMANCE_LEGS ignored', out)
        self.assertIn('FAILURE: HS-06: expected UNKNOWN (leg l2)', out)
        self.assertIn('FAILURE: 1 requirement(s) failed: HS-06', out)
        self.assertIn('FAILURE: exit 2 without a merged verdict', out)
        self.assertIn('FAILURE: leg l3: exit 3', out)
        self.assertNotIn('FAILURE: leg l3: exit 0', out)
        self.assertIn('FAILURE: `up` failed', out)
        self.assertIn('3 run(s), 2 failed', out)
        self.assertIn('leg l2: median up 1.0 s, run 2.0 s over 2 run(s)',
                      out)
        with open(os.path.join(keep, 'bench-verdicts.json')) as f:
            self.assertEqual([0, 1, 2], [r['exit'] for r in json.load(f)])
        self.assertTrue(os.path.isfile(os.path.join(keep, 'run-2',
                                                    'report.json')))
        self.exits(2, bench.verdicts_main, ['0'])

    def test_bench_suite_leg_names_a_plane(self):
        ran = []
        self.useFixture(fixtures.MockPatchObject(sh, 'setup', lambda: None))
        self.useFixture(fixtures.MockPatchObject(
            sh, 'run_stage', lambda func, trap: ran.append(func)))
        self.useFixture(fixtures.MockPatchObject(
            bench, 'bench_suite',
            lambda regex, work, plane='': (regex, plane)))
        # unified-limits: a plane, but no leg's (the default leg's
        # quota_counting_services).
        for argv in (['--leg'], ['--leg', 'nope'], ['--leg', ''],
                     ['--leg', 'unified-limits']):
            self.exits(1, bench.suite_main, argv)
            self.assertIn("--leg takes one of: pending-off (without it",
                          self.printed(self.err))
        self.assertEqual([], ran)
        bench.suite_main(['--leg', 'pending-off', 'x'])
        bench.suite_main([])
        self.assertEqual([('x', 'pending-off'), ('', '')],
                         [func() for func in ran])

    def test_bench_reads_the_legs_tempest_conf_by_section(self):
        # The floor goes through the leg's compute endpoint: [compute]
        # catalog_type, not [volume]'s, which comes first in the file.
        for ws, lines in (('tempest', ''), ('tempest-pending-off',
                                            'catalog_type = compute-po\n')):
            os.makedirs(os.path.join(self.tmp, ws, 'etc'))
            with open(os.path.join(self.tmp, ws, 'etc', 'tempest.conf'),
                      'w') as f:
                f.write('[volume]\ncatalog_type = block-storage\n'
                        '[compute]\n%s[nova_conformance]\n'
                        'pending_state_microversion = 2.105\n' % lines)
        self.assertIsNone(bench.conf_value('compute', 'catalog_type'))
        self.assertEqual('compute-po', bench.conf_value(
            'compute', 'catalog_type', conformance.PENDING_OFF_LEG))
        self.assertEqual('2.105', bench.conf_value(
            'nova_conformance', 'pending_state_microversion'))

    def test_bench_counts_boots_and_actions(self):
        lines = [b'x 202 POST http://h/compute/v2.1/servers 0.5',
                 b'x 202 POST http://h/v2.1/servers/ab-12/action 0.1',
                 b'x 200 POST http://h/v2.1/servers/ab-12/action 0.1',
                 b'x 200 GET http://h/v2.1/servers 0.1']
        self.assertEqual((1, 0, 0, 2, 0, 0),
                         suitebench.count_log(lines))
        self.assertRegex(bench.stamp(), r'^\d+\.\d{9}$')
        self.assertRegex(bench.cpu_busy(), r'^\d+ \d+\n$')

    def test_stages_need_the_standard_library_only(self):
        # They run with the tox venv's python (no openstacksdk, no yaml).
        for module in (sh, plugin_legs, runner_stage, bad_input,
                       conformance, bench, suitebench):
            names = set(module.__dict__)
            self.assertFalse(names & {'yaml', 'openstack'}, module)
        self.assertIn('pending_tempest_plugin.common.polling', sys.modules)

    def test_progress_log_every_line_timed_no_long_gap(self):
        from pending_aio.stages import venv_steps as stages
        good = self.write('good.log', '[  0:00] PLAY p\n\n[  0:29] TASK a\n'
                          '[  0:59] ... still: TASK a (30 s)\n'
                          '[  1:05] RECAP localhost: ok=1 changed=0 '
                          'unreachable=0 failed=0\n')
        stages.progress_log(good)
        self.assertIn('4 lines', self.printed())
        untimed = self.write('untimed.log', '[  0:00] TASK a\nfatal: x\n')
        exc = self.assertRaises(SystemExit, stages.progress_log, untimed)
        self.assertIn('untimed.log:2 shows no elapsed time: fatal: x',
                      str(exc.code))
        gap = self.write('gap.log', '[  0:00] TASK a\n[  0:31] TASK b\n')
        exc = self.assertRaises(SystemExit, stages.progress_log, gap)
        self.assertIn('gap.log:2 comes 31 s after the line before it',
                      str(exc.code))
