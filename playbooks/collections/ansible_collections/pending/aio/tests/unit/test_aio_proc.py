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
"""The embedded cloud's process control (the pending.aio modules' code).

Bad input must stop the playbook with a message naming the service and its
log file, check mode must change nothing, and a diff must never show a
secret; these tests pin that without a cloud.
"""

import ast
import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from unittest import mock

import fixtures
from oslotest import base
import yaml

from ansible_collections.pending.aio.plugins.module_utils import aio_proc

# This file is in the collection's tests/unit; the playbooks are six folders
# up.
COLLECTION = os.path.abspath(os.path.join(os.path.dirname(__file__), '..',
                                          '..'))
PLAYBOOKS = os.path.abspath(os.path.join(COLLECTION, '..', '..', '..', '..'))


class AioProcTestCase(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)


class TestPorts(AioProcTestCase):

    def test_port_held_by_another_process_names_service_and_holder(self):
        sock = socket.socket()
        self.addCleanup(sock.close)
        sock.bind(('127.0.0.1', 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        exc = self.assertRaises(
            aio_proc.AioError, aio_proc.check_ports, {'keystone': port},
            self.path('none.pid'))
        self.assertIn('port %d (needed by keystone) is already in use by '
                      'pid %d' % (port, os.getpid()), str(exc))
        self.assertIn('aio_ports', str(exc))

    def test_free_port_passes(self):
        sock = socket.socket()
        sock.bind(('127.0.0.1', 0))
        port = sock.getsockname()[1]
        sock.close()
        aio_proc.check_ports({'glance': port}, self.path('none.pid'))

    def test_probe_unix_socket(self):
        # memcached listens on a unix socket only.
        path = self.path('m.sock')
        self.assertFalse(aio_proc.probe(path=path))
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.addCleanup(sock.close)
        sock.bind(path)
        sock.listen(1)
        self.assertTrue(aio_proc.probe(path=path))


class TestSteps(AioProcTestCase):

    def step(self, name, cmd, marker=True, what=None):
        step = {'name': name, 'what': what or name + ' db sync',
                'log': self.path('logs', name + '.log'),
                'cmd': ['bash', '-c', cmd]}
        if marker:
            step['marker'] = self.path(name + '-synced')
        return step

    def test_failed_step_names_service_step_and_log(self):
        step = self.step('glance', 'echo "cannot connect to MySQL"; exit 3',
                         what='glance-manage db_sync')
        exc = self.assertRaises(aio_proc.AioError, aio_proc.run_steps,
                                [step])
        self.assertIn('glance: glance-manage db_sync failed (exit 3); see %s'
                      % step['log'], str(exc))
        self.assertIn('cannot connect to MySQL', str(exc))
        self.assertFalse(os.path.exists(step['marker']))

    def test_marker_makes_the_step_run_once(self):
        step = self.step('x', 'echo ran')
        self.assertEqual(['x'], aio_proc.run_steps([step]))
        self.assertEqual([], aio_proc.run_steps([step]))
        with open(step['log']) as f:
            self.assertEqual(1, f.read().splitlines().count('ran'))

    def test_creates_skips_without_writing(self):
        made = self.path('made')
        step = dict(self.step('x', 'echo ran > %s' % made, marker=False),
                    creates=made)
        self.assertEqual(['x'], aio_proc.run_steps([step]))
        self.assertEqual([], aio_proc.run_steps([step]))
        with open(made) as f:
            self.assertEqual('ran\n', f.read())

    def test_check_mode_runs_nothing(self):
        step = self.step('x', 'touch %s' % self.path('touched'))
        self.assertEqual(['x'], aio_proc.run_steps([step], check=True))
        self.assertFalse(os.path.exists(self.path('touched')))
        self.assertFalse(os.path.exists(step['marker']))

    def test_secret_goes_in_the_environment_not_the_command(self):
        step = dict(self.step('x', 'echo "$PW" > %s' % self.path('pw')),
                    env={'PORT': 4369}, secret_env={'PW': 's3cr3t'})
        aio_proc.run_steps([step])
        with open(self.path('pw')) as f:
            self.assertEqual('s3cr3t\n', f.read())
        with open(step['log']) as f:
            self.assertNotIn('s3cr3t', f.read())

    def test_runs_concurrently_and_marks_each(self):
        # b waits for a file that a writes: only concurrent runs finish.
        flag = self.path('flag')
        ran = aio_proc.run_steps([
            self.step('b', 'for i in $(seq 100); do test -e %s && exit 0; '
                           'sleep 0.05; done; exit 1' % flag),
            self.step('a', 'touch %s' % flag)])
        self.assertEqual(['b', 'a'], ran)
        self.assertTrue(os.path.exists(self.path('a-synced')))
        self.assertTrue(os.path.exists(self.path('b-synced')))
        self.assertEqual([], aio_proc.run_steps(
            [self.step('a', 'exit 9'), self.step('b', 'exit 9')]),
            'markers skip done steps')

    def test_failure_names_service_what_and_log(self):
        exc = self.assertRaises(aio_proc.AioError, aio_proc.run_steps, [
            self.step('glance', 'true'),
            self.step('neutron', 'echo no such table; exit 4'),
            self.step('nova', 'exit 5', marker=False)])
        log = self.path('logs', 'neutron.log')
        self.assertIn('neutron: neutron db sync failed (exit 4); '
                      'see %s' % log, str(exc))
        self.assertIn('no such table', str(exc))
        self.assertIn('ERROR: nova: nova db sync failed (exit 5)', str(exc))
        self.assertTrue(os.path.exists(self.path('glance-synced')))
        self.assertFalse(os.path.exists(self.path('neutron-synced')))


class TestApt(AioProcTestCase):

    @mock.patch.object(aio_proc, 'installed', autospec=True,
                       return_value=False)
    @mock.patch.object(aio_proc.subprocess, 'call', autospec=True)
    @mock.patch.object(aio_proc.subprocess, 'run', autospec=True)
    def test_missing_package_is_named(self, run, call, installed):
        call.side_effect = [0, 100]          # update ok, install fails
        run.side_effect = lambda cmd, **kw: mock.Mock(
            returncode=100 if cmd[-1] == 'ovn-central' else 0)
        exc = self.assertRaises(
            aio_proc.AioError, aio_proc.apt_install,
            {'mariadb-server': 'MariaDB', 'ovn-central': 'OVN central'},
            self.path('apt.log'), self.path('marker'))
        self.assertIn('apt could not install ovn-central (OVN central)',
                      str(exc))
        self.assertNotIn('mariadb-server', str(exc).splitlines()[0])
        self.assertFalse(os.path.exists(self.path('marker')))

    @mock.patch.object(aio_proc, 'installed', autospec=True,
                       return_value=True)
    @mock.patch.object(aio_proc.subprocess, 'call', autospec=True)
    def test_nothing_to_install_changes_nothing(self, call, installed):
        marker = self.path('marker')
        self.assertEqual([], aio_proc.apt_install(
            {'curl': 'x'}, self.path('apt.log'), marker))
        call.assert_not_called()
        # the marker then spares even the dpkg query
        installed.reset_mock()
        self.assertEqual([], aio_proc.apt_install(
            {'curl': 'x'}, self.path('apt.log'), marker))
        installed.assert_not_called()

    @mock.patch.object(aio_proc, 'installed', autospec=True,
                       return_value=False)
    @mock.patch.object(aio_proc.subprocess, 'call', autospec=True)
    def test_check_mode_names_what_would_install(self, call, installed):
        self.assertEqual(['curl'], aio_proc.apt_install(
            {'curl': 'x'}, self.path('apt.log'), check=True))
        call.assert_not_called()


class TestFiles(AioProcTestCase):

    def test_writes_only_what_differs_and_diffs_it(self):
        conf = self.path('etc', 'a.conf')
        spec = {'dirs': [{'path': self.path('etc')}],
                'files': [{'path': conf, 'content': 'x = 1\n'}]}
        did, diffs = aio_proc.write_files(spec)
        self.assertEqual([self.path('etc'), conf], did)
        self.assertEqual((conf, '', 'x = 1\n'), (
            diffs[1]['after_header'], diffs[1]['before'], diffs[1]['after']))
        self.assertEqual(([], []), aio_proc.write_files(spec))
        self.assertEqual(0o644, stat.S_IMODE(os.stat(conf).st_mode))

    def test_check_mode_changes_nothing_and_shows_the_change(self):
        conf = self.path('a.conf')
        with open(conf, 'w') as f:
            f.write('x = 1\n')
        spec = {'files': [{'path': conf, 'content': 'x = 2\n'},
                          {'path': self.path('new'), 'content': 'n\n'}]}
        did, diffs = aio_proc.write_files(spec, check=True)
        self.assertEqual([conf, self.path('new')], did)
        self.assertEqual(('x = 1\n', 'x = 2\n'),
                         (diffs[0]['before'], diffs[0]['after']))
        with open(conf) as f:
            self.assertEqual('x = 1\n', f.read())
        self.assertFalse(os.path.exists(self.path('new')))

    def test_secret_file_is_owner_only_and_never_in_a_diff(self):
        conf = self.path('nova.conf')
        spec = {'files': [{'path': conf, 'mode': '0600', 'secret': True,
                           'content': 'password = s3cr3t\n'}]}
        _, diffs = aio_proc.write_files(spec)
        self.assertEqual(0o600, stat.S_IMODE(os.stat(conf).st_mode))
        self.assertNotIn('s3cr3t', repr(diffs))
        spec['files'][0]['content'] = 'password = other\n'
        _, diffs = aio_proc.write_files(spec, check=True)
        self.assertNotIn('s3cr3t', repr(diffs))
        self.assertNotIn('other', repr(diffs))

    def test_mode_change_alone_is_a_change(self):
        conf = self.path('a.conf')
        spec = {'files': [{'path': conf, 'content': 'x\n', 'mode': '0644'}]}
        aio_proc.write_files(spec)
        spec['files'][0]['mode'] = '0600'
        did, diffs = aio_proc.write_files(spec)
        self.assertEqual([conf], did)
        self.assertEqual(('0644\n', '0600\n'),
                         (diffs[0]['before'], diffs[0]['after']))
        self.assertEqual(0o600, stat.S_IMODE(os.stat(conf).st_mode))


class TestPrograms(AioProcTestCase):

    def sup(self):
        return aio_proc.Supervisor('c', 'ctl', 'd', 'p')

    def test_program_that_dies_fails_fast_with_its_log(self):
        with open(self.path('nova-api.log'), 'w') as f:
            f.write('Worker exiting: No section osapi_compute\n')
        states = iter(['STOPPED', 'FATAL', 'FATAL'])

        def call(sup, *words, check=True):
            if words[0] == 'status':
                return 'nova-api %s pid 1\nother RUNNING\n' % next(states)
            return ''
        with mock.patch.object(aio_proc.Supervisor, 'call', autospec=True,
                               side_effect=call):
            exc = self.assertRaises(
                aio_proc.AioError, aio_proc.ensure, self.sup(),
                [{'name': 'nova-api', 'command': 'x',
                  'url': 'http://127.0.0.1:1/'}], self.tmp, self.tmp, 5)
        self.assertIn('nova-api did not start (supervisor state FATAL); see '
                      '%s/nova-api.log' % self.tmp, str(exc))
        self.assertIn('No section osapi_compute', str(exc))

    def test_a_frozen_program_is_thawed_and_said_changed(self):
        # A run killed while a nova-compute was frozen (SIGSTOP) leaves it
        # RUNNING to supervisord: `up` sends it SIGCONT, and says so.
        program = {'name': 'nova-compute-cn1', 'command': 'x'}
        with open(self.path('fingerprint-nova-compute-cn1'), 'w') as f:
            f.write(aio_proc.fingerprint(program))
        calls = []

        def call(sup, *words, check=True):
            calls.append(words)
            if words[0] == 'status':
                return ('nova-compute-cn1 RUNNING pid 41, uptime 0:01:00\n'
                        'other RUNNING pid 42, uptime 0:01:00\n')
            return ''
        frozen = {41: True, 42: True}
        with mock.patch.object(aio_proc.Supervisor, 'call', autospec=True,
                               side_effect=call), \
                mock.patch.object(aio_proc, 'frozen', autospec=True,
                                  side_effect=lambda pid: frozen[pid]):
            self.assertEqual(['nova-compute-cn1'], aio_proc.ensure(
                self.sup(), [program], self.tmp, self.tmp, check=True))
            self.assertNotIn(('signal', 'CONT', 'nova-compute-cn1'), calls)
            self.assertEqual(['nova-compute-cn1'], aio_proc.ensure(
                self.sup(), [program], self.tmp, self.tmp, 5))
            # Only the phase's own programs: "other" is another phase's.
            self.assertEqual([('signal', 'CONT', 'nova-compute-cn1')],
                             [c for c in calls if c[0] == 'signal'])
            frozen[41] = False
            self.assertEqual([], aio_proc.ensure(
                self.sup(), [program], self.tmp, self.tmp, 5))
            rows, bad = aio_proc.status(self.sup(), {})
        self.assertEqual(1, bad)
        self.assertEqual(('other', 'RUNNING'), rows[1][:2])
        self.assertIn('FROZEN', rows[1][2])
        self.assertEqual('running', rows[0][2])

    def test_a_frozen_program_whose_configuration_changed_restarts(self):
        # Thawed, and restarted too: a thaw must not stand for the restart
        # a changed configuration needs (the fingerprint would be recorded
        # over a process that runs the old one).
        program = {'name': 'nova-compute-cn1', 'command': 'x'}
        with open(self.path('fingerprint-nova-compute-cn1'), 'w') as f:
            f.write('an older configuration')
        calls = []

        def call(sup, *words, check=True):
            calls.append(words)
            if words[0] == 'status':
                return 'nova-compute-cn1 RUNNING pid 41, uptime 0:01:00\n'
            return ''
        with mock.patch.object(aio_proc.Supervisor, 'call', autospec=True,
                               side_effect=call), \
                mock.patch.object(aio_proc, 'frozen', autospec=True,
                                  return_value=True):
            self.assertEqual(['nova-compute-cn1'], aio_proc.ensure(
                self.sup(), [program], self.tmp, self.tmp, 5))
        self.assertEqual([('signal', 'CONT', 'nova-compute-cn1'),
                          ('restart', 'nova-compute-cn1')],
                         [c for c in calls if c[0] in ('signal', 'restart')])

    def test_frozen_reads_the_process_state(self):
        self.assertFalse(aio_proc.frozen(os.getpid()))
        self.assertFalse(aio_proc.frozen(2 ** 22 + 1))   # no such process
        proc = subprocess.Popen(['sleep', '30'])
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        proc.send_signal(signal.SIGSTOP)
        for _ in range(100):
            if aio_proc.frozen(proc.pid):
                break
            time.sleep(0.02)
        self.assertTrue(aio_proc.frozen(proc.pid))
        proc.send_signal(signal.SIGCONT)
        for _ in range(100):
            if not aio_proc.frozen(proc.pid):
                break
            time.sleep(0.02)
        self.assertFalse(aio_proc.frozen(proc.pid))

    def test_check_mode_names_a_changed_program_and_touches_nothing(self):
        conf = self.path('nova.conf')
        with open(conf, 'w') as f:
            f.write('[DEFAULT]\n')
        program = {'name': 'nova-api', 'command': 'x', 'configs': [conf]}
        with open(self.path('fingerprint-nova-api'), 'w') as f:
            f.write(aio_proc.fingerprint(program))
        calls = []

        def call(sup, *words, check=True):
            calls.append(words[0])
            return 'nova-api RUNNING pid 1\n' if words[0] == 'status' else ''
        with mock.patch.object(aio_proc.Supervisor, 'call', autospec=True,
                               side_effect=call):
            self.assertEqual([], aio_proc.ensure(
                self.sup(), [program], self.tmp, self.tmp, check=True))
            with open(conf, 'a') as f:
                f.write('debug = true\n')
            self.assertEqual(['nova-api'], aio_proc.ensure(
                self.sup(), [program], self.tmp, self.tmp, check=True))
            # check mode wrote no file: the files step says what it would
            with open(conf, 'w') as f:
                f.write('[DEFAULT]\n')
            self.assertEqual(['nova-api'], aio_proc.ensure(
                self.sup(), [program], self.tmp, self.tmp, check=True,
                changed_configs=[conf]))
        self.assertEqual({'reread', 'status'}, set(calls))

    def test_changed_programs_restart_at_once(self):
        # Two running programs of one priority whose configuration changed
        # restart together (a leg switch's nova-api and nova-conductor):
        # each restart waits for the other's at a barrier, which two
        # restarts one after the other would never pass.
        programs = [{'name': n, 'command': n, 'priority': 210}
                    for n in ('a', 'b')]
        barrier = threading.Barrier(2, timeout=10)
        restarted = []

        def call(sup, *words, check=True):
            if words[0] == 'status':
                return 'a RUNNING pid 1\nb RUNNING pid 2\n'
            if words[0] == 'restart':
                barrier.wait()
                restarted.append(words[1])
            return ''
        with mock.patch.object(aio_proc.Supervisor, 'call', autospec=True,
                               side_effect=call):
            self.assertEqual(['a', 'b'], aio_proc.ensure(
                self.sup(), programs, self.tmp, self.tmp, 5))
        self.assertEqual(['a', 'b'], sorted(restarted))
        # Their fingerprints are recorded: the next run restarts nothing.
        with mock.patch.object(aio_proc.Supervisor, 'call', autospec=True,
                               side_effect=call):
            self.assertEqual([], aio_proc.ensure(
                self.sup(), programs, self.tmp, self.tmp, 5))

    def test_restart_waves_follow_priority_and_updated_skip(self):
        # epmd (10) restarts before rabbitmq (20), never beside it; a
        # program supervisord's `update` already restarted is not
        # restarted again.
        programs = [{'name': 'epmd', 'command': 'e', 'priority': 10},
                    {'name': 'rabbitmq', 'command': 'r', 'priority': 20},
                    {'name': 'nova-api', 'command': 'n', 'priority': 20}]
        calls = []

        def call(sup, *words, check=True):
            if words[0] == 'status':
                return ('epmd RUNNING pid 1\nrabbitmq RUNNING pid 2\n'
                        'nova-api RUNNING pid 3\n')
            if words[0] == 'update':
                return 'nova-api: updated process group\n'
            calls.append(words)
            return ''
        with mock.patch.object(aio_proc.Supervisor, 'call', autospec=True,
                               side_effect=call):
            self.assertEqual(['epmd', 'nova-api', 'rabbitmq'],
                             aio_proc.ensure(self.sup(), programs, self.tmp,
                                             self.tmp, 5))
        self.assertEqual([('restart', 'epmd'), ('restart', 'rabbitmq')],
                         calls)

    def test_a_restart_that_cannot_run_fails_and_records_nothing(self):
        # supervisorctl itself failing (not the program) ends the step;
        # the program keeps no new fingerprint, so the next `up` restarts
        # it again.
        programs = [{'name': n, 'command': n, 'priority': 210}
                    for n in ('a', 'b')]

        def call(sup, *words, check=True):
            if words[0] == 'status':
                return 'a RUNNING pid 1\nb RUNNING pid 2\n'
            if words[:2] == ('restart', 'b'):
                raise OSError(12, 'Cannot allocate memory')
            return ''
        with mock.patch.object(aio_proc.Supervisor, 'call', autospec=True,
                               side_effect=call):
            exc = self.assertRaises(aio_proc.AioError, aio_proc.ensure,
                                    self.sup(), programs, self.tmp,
                                    self.tmp, 5)
        self.assertIn('supervisorctl restart failed: b:', str(exc))
        self.assertIn('Cannot allocate memory', str(exc))
        self.assertFalse(os.path.exists(self.path('fingerprint-b')))

    def test_fingerprint_follows_config_content(self):
        conf = self.path('nova.conf')
        with open(conf, 'w') as f:
            f.write('[DEFAULT]\n')
        program = {'name': 'n', 'command': 'nova-api', 'configs': [conf]}
        before = aio_proc.fingerprint(program)
        self.assertEqual(before, aio_proc.fingerprint(program))
        with open(conf, 'a') as f:
            f.write('debug = true\n')
        self.assertNotEqual(before, aio_proc.fingerprint(program))
        self.assertNotEqual(
            before, aio_proc.fingerprint(dict(program, command='other')))


class TestDown(AioProcTestCase):

    def test_down_without_supervisor_kills_nothing_foreign(self):
        with tempfile.TemporaryDirectory() as aio_dir:
            with mock.patch.object(aio_proc.Supervisor, 'running',
                                   autospec=True, return_value=False):
                aio_proc.down(aio_proc.Supervisor('c', 'ctl', 'd', 'p'),
                              aio_dir)

    def supervisor(self):
        os.makedirs(self.path('conf.d'))
        conf = self.path('supervisord.conf')
        with open(conf, 'w') as f:
            f.write('[supervisord]\nlogfile = x\n\n[include]\n'
                    'files = %s/*.conf\n' % self.path('conf.d'))
        for phase, programs in (
                ('backends', [('mariadb', 10), ('epmd', 10),
                              ('rabbitmq', 20)]),
                ('services', [('placement', 200), ('nova-api', 210),
                              ('nova-conductor', 210),
                              ('nova-compute-cn1', 220)])):
            with open(self.path('conf.d', phase + '.conf'), 'w') as f:
                for name, priority in programs:
                    f.write('[program:%s]\ncommand=x\npriority=%d\n'
                            'stopwaitsecs=30\n\n' % (name, priority))
        return aio_proc.Supervisor(conf, 'ctl', 'd', 'p')

    def test_priorities_from_the_included_program_files(self):
        self.assertEqual(
            {'mariadb': 10, 'epmd': 10, 'rabbitmq': 20, 'placement': 200,
             'nova-api': 210, 'nova-conductor': 210,
             'nova-compute-cn1': 220},
            self.supervisor().priorities())
        self.assertEqual({}, aio_proc.Supervisor(
            self.path('none.conf'), 'ctl', 'd', 'p').priorities())

    def test_waves_last_started_first_each_at_once_epmd_last(self):
        # The services before their backends (a gunicorn whose database had
        # stopped waited out its stop timeout); RabbitMQ starts an epmd of
        # its own when ours stops before it.
        sup = self.supervisor()
        status = ''.join('%s RUNNING pid %d\n' % (name, pid) for pid, name in
                         enumerate(['epmd', 'mariadb', 'nova-api',
                                    'nova-compute-cn1', 'nova-conductor',
                                    'placement', 'rabbitmq', 'other'], 1))
        waves = []
        with mock.patch.object(aio_proc.Supervisor, 'call', autospec=True,
                               return_value=status):
            with mock.patch.object(
                    aio_proc.Supervisor, 'call_each', autospec=True,
                    side_effect=lambda s, verb, names: waves.append(
                        (verb, names))):
                sup.stop_all()
        self.assertEqual(
            [('stop', ['other']), ('stop', ['nova-compute-cn1']),
             ('stop', ['nova-api', 'nova-conductor']),
             ('stop', ['placement']), ('stop', ['rabbitmq']),
             ('stop', ['mariadb']), ('stop', ['epmd'])], waves)

    def test_a_wave_that_fails_does_not_stop_the_others(self):
        sup = self.supervisor()
        with mock.patch.object(aio_proc.Supervisor, 'call', autospec=True,
                               return_value='mariadb RUNNING pid 1\n'
                               'placement RUNNING pid 2\n'):
            with mock.patch.object(aio_proc.Supervisor, 'call_each',
                                   autospec=True,
                                   side_effect=aio_proc.AioError('x')) as each:
                sup.stop_all()
        # placement's wave, mariadb's, the (empty) last one
        self.assertEqual(3, each.call_count)


class TestCached(AioProcTestCase):

    def cached(self, data, key='k', fail=False, check=False):
        counter = self.path('runs')
        script = ('cat; echo; echo run >> %s; %s' % (
            counter, 'exit 3' if fail else 'true'))
        result = aio_proc.cached(self.path('c', 'out'), key,
                                 ['bash', '-c', script], data, check=check)
        runs = 0
        if os.path.exists(counter):
            with open(counter) as f:
                runs = len(f.readlines())
        return result[:2], runs

    def test_runs_once_per_input_then_replays(self):
        self.assertEqual(((True, '{"a": 1}\n'), 1), self.cached(b'{"a": 1}'))
        self.assertEqual(((False, '{"a": 1}\n'), 1),
                         self.cached(b'{"a": 1}'))
        self.assertEqual(((True, '{"a": 2}\n'), 2), self.cached(b'{"a": 2}'))
        self.assertEqual(((True, '{"a": 2}\n'), 3),
                         self.cached(b'{"a": 2}', key='other nova'))
        self.assertEqual(0o600, stat.S_IMODE(
            os.stat(self.path('c', 'out')).st_mode))

    def test_failure_is_not_cached(self):
        self.assertRaises(aio_proc.AioError, self.cached, b'x', fail=True)
        self.assertEqual(((True, 'x\n'), 2), self.cached(b'x'))

    def test_check_mode_replays_the_stored_output_without_running(self):
        self.cached(b'one')
        self.assertEqual(((True, 'one\n'), 1),
                         self.cached(b'two', check=True))


class TestPoll(AioProcTestCase):

    def test_logs_each_change_and_raises_at_the_end(self):
        values = iter([1, 1, 2, 2, 2])
        log = []
        with mock.patch.object(aio_proc.time, 'sleep', autospec=True):
            exc = self.assertRaises(
                KeyError, aio_proc.poll, lambda: next(values),
                lambda v: v == 3, 0, 0, lambda v: KeyError(v), 'x', log)
        self.assertEqual(['x: 1 (after'], [line[:11] for line in log])
        self.assertEqual(KeyError(1).args, exc.args)


class TestAioctl(AioProcTestCase):

    def test_status_of_a_cloud_that_is_down(self):
        # tools/aio status runs playbooks/files/aioctl.py as a program.
        aioctl = os.path.join(PLAYBOOKS, 'files', 'aioctl.py')
        proc = subprocess.run(
            [sys.executable, aioctl, 'status', '--conf', 'c', '--ctl', 'x',
             '--daemon', 'd', '--pidfile', self.path('none.pid')],
            capture_output=True, text=True)
        self.assertEqual(3, proc.returncode, proc.stderr)
        self.assertIn('the embedded cloud is down', proc.stdout)


class TestModuleDocs(base.BaseTestCase):
    """Each module documents itself as ansible-doc reads it."""

    def test_documentation_parses_and_names_the_module(self):
        modules = os.path.join(COLLECTION, 'plugins', 'modules')
        names = sorted(f[:-3] for f in os.listdir(modules)
                       if f.endswith('.py'))
        self.assertIn('files', names)
        for name in names:
            with open(os.path.join(modules, name + '.py')) as f:
                tree = ast.parse(f.read())
            docs = {n.targets[0].id: yaml.safe_load(n.value.value)
                    for n in tree.body if isinstance(n, ast.Assign)
                    and n.targets[0].id in ('DOCUMENTATION', 'RETURN')}
            self.assertEqual(name, docs['DOCUMENTATION']['module'])
            self.assertTrue(docs['DOCUMENTATION']['short_description'])


class TestMentions(base.BaseTestCase):

    def test_the_state_directory_and_not_a_sibling(self):
        self.assertTrue(aio_proc.mentions('mysqld --datadir=/x/.aio/data',
                                          '/x/.aio'))
        self.assertTrue(aio_proc.mentions('/x/.aio', '/x/.aio'))
        self.assertFalse(aio_proc.mentions('mysqld --datadir=/x/.aio2/data',
                                           '/x/.aio'))
