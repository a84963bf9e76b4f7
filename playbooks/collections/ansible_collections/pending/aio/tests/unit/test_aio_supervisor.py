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
"""The embedded cloud's processes under supervisord (``aio_supervisor``).

A program that dies stops the playbook with its log; check mode changes
nothing; a program whose configuration changed restarts, with the others
of its priority at once; ``down`` stops in waves and kills nothing
foreign; ``tools/aio status`` runs as a program.
"""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from unittest import mock

from oslotest import base

import aio_testcase
from ansible_collections.pending.aio.plugins.module_utils import aio_common
from ansible_collections.pending.aio.plugins.module_utils import aio_supervisor


class TestProbe(aio_testcase.AioTestCase):

    def test_probe_unix_socket(self):
        # memcached listens on a unix socket only.
        path = self.path('m.sock')
        self.assertFalse(aio_supervisor.probe(path=path))
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.addCleanup(sock.close)
        sock.bind(path)
        sock.listen(1)
        self.assertTrue(aio_supervisor.probe(path=path))


class TestPrograms(aio_testcase.AioTestCase):

    def sup(self):
        return aio_supervisor.Supervisor('c', 'ctl', 'd', 'p')

    def test_program_that_dies_fails_fast_with_its_log(self):
        with open(self.path('nova-api.log'), 'w') as f:
            f.write('Worker exiting: No section osapi_compute\n')
        states = iter(['STOPPED', 'FATAL', 'FATAL'])

        def call(sup, *words, check=True):
            if words[0] == 'status':
                return 'nova-api %s pid 1\nother RUNNING\n' % next(states)
            return ''
        with mock.patch.object(aio_supervisor.Supervisor, 'call',
                               autospec=True, side_effect=call):
            exc = self.assertRaises(
                aio_common.AioError, aio_supervisor.ensure, self.sup(),
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
            f.write(aio_supervisor.fingerprint(program))
        calls = []

        def call(sup, *words, check=True):
            calls.append(words)
            if words[0] == 'status':
                return ('nova-compute-cn1 RUNNING pid 41, uptime 0:01:00\n'
                        'other RUNNING pid 42, uptime 0:01:00\n')
            return ''
        frozen = {41: True, 42: True}
        with mock.patch.object(aio_supervisor.Supervisor, 'call',
                               autospec=True, side_effect=call), \
                mock.patch.object(aio_supervisor, 'frozen', autospec=True,
                                  side_effect=lambda pid: frozen[pid]):
            self.assertEqual(['nova-compute-cn1'], aio_supervisor.ensure(
                self.sup(), [program], self.tmp, self.tmp, check=True))
            self.assertNotIn(('signal', 'CONT', 'nova-compute-cn1'), calls)
            self.assertEqual(['nova-compute-cn1'], aio_supervisor.ensure(
                self.sup(), [program], self.tmp, self.tmp, 5))
            # Only the phase's own programs: "other" is another phase's.
            self.assertEqual([('signal', 'CONT', 'nova-compute-cn1')],
                             [c for c in calls if c[0] == 'signal'])
            frozen[41] = False
            self.assertEqual([], aio_supervisor.ensure(
                self.sup(), [program], self.tmp, self.tmp, 5))
            rows, bad = aio_supervisor.status(self.sup(), {})
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
        with mock.patch.object(aio_supervisor.Supervisor, 'call',
                               autospec=True, side_effect=call), \
                mock.patch.object(aio_supervisor, 'frozen', autospec=True,
                                  return_value=True):
            self.assertEqual(['nova-compute-cn1'], aio_supervisor.ensure(
                self.sup(), [program], self.tmp, self.tmp, 5))
        self.assertEqual([('signal', 'CONT', 'nova-compute-cn1'),
                          ('restart', 'nova-compute-cn1')],
                         [c for c in calls if c[0] in ('signal', 'restart')])

    def test_frozen_reads_the_process_state(self):
        self.assertFalse(aio_supervisor.frozen(os.getpid()))
        # no such process
        self.assertFalse(aio_supervisor.frozen(2 ** 22 + 1))
        proc = subprocess.Popen(['sleep', '30'])
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        proc.send_signal(signal.SIGSTOP)
        for _ in range(100):
            if aio_supervisor.frozen(proc.pid):
                break
            time.sleep(0.02)
        self.assertTrue(aio_supervisor.frozen(proc.pid))
        proc.send_signal(signal.SIGCONT)
        for _ in range(100):
            if not aio_supervisor.frozen(proc.pid):
                break
            time.sleep(0.02)
        self.assertFalse(aio_supervisor.frozen(proc.pid))

    def test_check_mode_names_a_changed_program_and_touches_nothing(self):
        conf = self.path('nova.conf')
        with open(conf, 'w') as f:
            f.write('[DEFAULT]\n')
        program = {'name': 'nova-api', 'command': 'x', 'configs': [conf]}
        with open(self.path('fingerprint-nova-api'), 'w') as f:
            f.write(aio_supervisor.fingerprint(program))
        calls = []

        def call(sup, *words, check=True):
            calls.append(words[0])
            return 'nova-api RUNNING pid 1\n' if words[0] == 'status' else ''
        with mock.patch.object(aio_supervisor.Supervisor, 'call',
                               autospec=True, side_effect=call):
            self.assertEqual([], aio_supervisor.ensure(
                self.sup(), [program], self.tmp, self.tmp, check=True))
            with open(conf, 'a') as f:
                f.write('debug = true\n')
            self.assertEqual(['nova-api'], aio_supervisor.ensure(
                self.sup(), [program], self.tmp, self.tmp, check=True))
            # check mode wrote no file: the files step says what it would
            with open(conf, 'w') as f:
                f.write('[DEFAULT]\n')
            self.assertEqual(['nova-api'], aio_supervisor.ensure(
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
        with mock.patch.object(aio_supervisor.Supervisor, 'call',
                               autospec=True, side_effect=call):
            self.assertEqual(['a', 'b'], aio_supervisor.ensure(
                self.sup(), programs, self.tmp, self.tmp, 5))
        self.assertEqual(['a', 'b'], sorted(restarted))
        # Their fingerprints are recorded: the next run restarts nothing.
        with mock.patch.object(aio_supervisor.Supervisor, 'call',
                               autospec=True, side_effect=call):
            self.assertEqual([], aio_supervisor.ensure(
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
        with mock.patch.object(aio_supervisor.Supervisor, 'call',
                               autospec=True, side_effect=call):
            self.assertEqual(['epmd', 'nova-api', 'rabbitmq'],
                             aio_supervisor.ensure(self.sup(), programs,
                                                   self.tmp, self.tmp, 5))
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
        with mock.patch.object(aio_supervisor.Supervisor, 'call',
                               autospec=True, side_effect=call):
            exc = self.assertRaises(aio_common.AioError, aio_supervisor.ensure,
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
        before = aio_supervisor.fingerprint(program)
        self.assertEqual(before, aio_supervisor.fingerprint(program))
        with open(conf, 'a') as f:
            f.write('debug = true\n')
        self.assertNotEqual(before, aio_supervisor.fingerprint(program))
        self.assertNotEqual(
            before, aio_supervisor.fingerprint(dict(program, command='other')))


class TestDown(aio_testcase.AioTestCase):

    def test_down_without_supervisor_kills_nothing_foreign(self):
        with tempfile.TemporaryDirectory() as aio_dir:
            with mock.patch.object(aio_supervisor.Supervisor, 'running',
                                   autospec=True, return_value=False):
                aio_supervisor.down(
                    aio_supervisor.Supervisor('c', 'ctl', 'd', 'p'), aio_dir)

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
        return aio_supervisor.Supervisor(conf, 'ctl', 'd', 'p')

    def test_priorities_from_the_included_program_files(self):
        self.assertEqual(
            {'mariadb': 10, 'epmd': 10, 'rabbitmq': 20, 'placement': 200,
             'nova-api': 210, 'nova-conductor': 210,
             'nova-compute-cn1': 220},
            self.supervisor().priorities())
        self.assertEqual({}, aio_supervisor.Supervisor(
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
        with mock.patch.object(aio_supervisor.Supervisor, 'call',
                               autospec=True, return_value=status):
            with mock.patch.object(
                    aio_supervisor.Supervisor, 'call_each', autospec=True,
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
        with mock.patch.object(aio_supervisor.Supervisor, 'call',
                               autospec=True,
                               return_value='mariadb RUNNING pid 1\n'
                               'placement RUNNING pid 2\n'):
            with mock.patch.object(
                    aio_supervisor.Supervisor, 'call_each', autospec=True,
                    side_effect=aio_common.AioError('x')) as each:
                sup.stop_all()
        # placement's wave, mariadb's, the (empty) last one
        self.assertEqual(3, each.call_count)


class TestAioctl(aio_testcase.AioTestCase):

    def test_status_of_a_cloud_that_is_down(self):
        # tools/aio status runs playbooks/files/aioctl.py as a program.
        aioctl = os.path.join(aio_testcase.PLAYBOOKS, 'files', 'aioctl.py')
        proc = subprocess.run(
            [sys.executable, aioctl, 'status', '--conf', 'c', '--ctl', 'x',
             '--daemon', 'd', '--pidfile', self.path('none.pid')],
            capture_output=True, text=True)
        self.assertEqual(3, proc.returncode, proc.stderr)
        self.assertIn('the embedded cloud is down', proc.stdout)


class TestMentions(base.BaseTestCase):

    def test_the_state_directory_and_not_a_sibling(self):
        self.assertTrue(aio_supervisor.mentions(
            'mysqld --datadir=/x/.aio/data', '/x/.aio'))
        self.assertTrue(aio_supervisor.mentions('/x/.aio', '/x/.aio'))
        self.assertFalse(aio_supervisor.mentions(
            'mysqld --datadir=/x/.aio2/data', '/x/.aio'))
