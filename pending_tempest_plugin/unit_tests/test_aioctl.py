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
"""Error paths of the embedded cloud's process control (playbooks/files).

Bad input must stop the playbook with a message naming the service and its
log file; these tests pin those messages without a cloud.
"""

import contextlib
import io
import json
import os
import socket
import tempfile
from unittest import mock

import fixtures
from oslotest import base

from pending_tempest_plugin.unit_tests import fakes

aioctl = fakes.load_module('aioctl', 'playbooks', 'files', 'aioctl.py')


class AioctlTestCase(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path

    def run_main(self, argv):
        """Run aioctl; return (exit code, stdout, stderr)."""
        out, err = io.StringIO(), io.StringIO()
        code = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                aioctl.main(argv)
            except SystemExit as e:
                code = e.code
        return code, out.getvalue(), err.getvalue()


class TestPorts(AioctlTestCase):

    def test_port_held_by_another_process_names_service_and_holder(self):
        sock = socket.socket()
        self.addCleanup(sock.close)
        sock.bind(('127.0.0.1', 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        code, _, err = self.run_main(
            ['ports', '--supervisor-pidfile',
             os.path.join(self.tmp, 'none.pid'), 'keystone=%d' % port])
        self.assertEqual(1, code)
        self.assertIn('port %d (needed by keystone) is already in use by '
                      'pid %d' % (port, os.getpid()), err)
        self.assertIn('aio_ports', err)

    def test_free_port_passes(self):
        sock = socket.socket()
        sock.bind(('127.0.0.1', 0))
        port = sock.getsockname()[1]
        sock.close()
        code, _, err = self.run_main(
            ['ports', '--supervisor-pidfile',
             os.path.join(self.tmp, 'none.pid'), 'glance=%d' % port])
        self.assertEqual(0, code, err)


class TestRun(AioctlTestCase):

    def test_failed_step_names_service_step_and_log(self):
        log = os.path.join(self.tmp, 'glance-bootstrap.log')
        code, _, err = self.run_main(
            ['run', '--name', 'glance', '--what', 'glance-manage db_sync',
             '--log', log, '--marker', os.path.join(self.tmp, 'm'), '--',
             'sh', '-c', 'echo "cannot connect to MySQL"; exit 3'])
        self.assertEqual(1, code)
        self.assertIn('ERROR: glance: glance-manage db_sync failed (exit 3);'
                      ' see %s' % log, err)
        self.assertIn('cannot connect to MySQL', err)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, 'm')))

    def test_marker_makes_the_step_run_once(self):
        marker = os.path.join(self.tmp, 'done')
        log = os.path.join(self.tmp, 'x.log')
        argv = ['run', '--name', 'x', '--log', log, '--marker', marker,
                '--', 'sh', '-c', 'echo ran']
        code, out, _ = self.run_main(argv)
        self.assertEqual((0, 'CHANGED\n'), (code, out))
        code, out, _ = self.run_main(argv)
        self.assertEqual((0, ''), (code, out))
        with open(log) as f:
            self.assertEqual(1, f.read().splitlines().count('ran'))


class TestApt(AioctlTestCase):

    @mock.patch.object(aioctl, 'installed', autospec=True,
                       return_value=False)
    @mock.patch.object(aioctl.subprocess, 'call', autospec=True)
    @mock.patch.object(aioctl.subprocess, 'run', autospec=True)
    def test_missing_package_is_named(self, run, call, installed):
        call.side_effect = [0, 100]          # update ok, install fails
        run.side_effect = lambda cmd, **kw: mock.Mock(
            returncode=100 if cmd[-1] == 'ovn-central' else 0)
        code, _, err = self.run_main(
            ['apt', '--log', os.path.join(self.tmp, 'apt.log'),
             'mariadb-server=MariaDB', 'ovn-central=OVN central'])
        self.assertEqual(1, code)
        self.assertIn('apt could not install ovn-central (OVN central)', err)
        self.assertNotIn('mariadb-server', err.splitlines()[0])

    @mock.patch.object(aioctl, 'installed', autospec=True,
                       return_value=True)
    @mock.patch.object(aioctl.subprocess, 'call', autospec=True)
    def test_nothing_to_install_changes_nothing(self, call, installed):
        code, out, _ = self.run_main(
            ['apt', '--log', os.path.join(self.tmp, 'apt.log'), 'curl=x'])
        self.assertEqual((0, ''), (code, out))
        call.assert_not_called()


class TestEnsure(AioctlTestCase):

    def sup_args(self):
        return ['--conf', 'c', '--ctl', 'ctl', '--daemon', 'd',
                '--pidfile', 'p', '--state-dir', self.tmp,
                '--log-dir', self.tmp, '--timeout', '5']

    def test_program_that_dies_fails_fast_with_its_log(self):
        with open(os.path.join(self.tmp, 'nova-api.log'), 'w') as f:
            f.write('Worker exiting: No section osapi_compute\n')
        states = iter(['STOPPED', 'FATAL', 'FATAL'])

        def call(sup, *words, check=True):
            if words[0] == 'status':
                return 'nova-api %s pid 1\nother RUNNING\n' % next(states)
            return ''
        with mock.patch.object(aioctl.Supervisor, 'call', autospec=True,
                               side_effect=call):
            code, _, err = self.run_main(
                ['ensure'] + self.sup_args() + ['--programs', json.dumps(
                    [{'name': 'nova-api', 'command': 'x',
                      'url': 'http://127.0.0.1:1/'}])])
        self.assertEqual(1, code)
        self.assertIn('nova-api did not start (supervisor state FATAL); see '
                      '%s/nova-api.log' % self.tmp, err)
        self.assertIn('No section osapi_compute', err)

    def test_fingerprint_follows_config_content(self):
        conf = os.path.join(self.tmp, 'nova.conf')
        with open(conf, 'w') as f:
            f.write('[DEFAULT]\n')
        program = {'name': 'n', 'command': 'nova-api', 'configs': [conf]}
        before = aioctl.fingerprint(program)
        self.assertEqual(before, aioctl.fingerprint(program))
        with open(conf, 'a') as f:
            f.write('debug = true\n')
        self.assertNotEqual(before, aioctl.fingerprint(program))
        self.assertNotEqual(
            before, aioctl.fingerprint(dict(program, command='other')))


class TestDown(AioctlTestCase):

    def test_down_without_supervisor_kills_nothing_foreign(self):
        with tempfile.TemporaryDirectory() as aio_dir:
            with mock.patch.object(aioctl.Supervisor, 'running',
                                   autospec=True, return_value=False):
                code, out, err = self.run_main(
                    ['down', '--conf', 'c', '--ctl', 'ctl', '--daemon', 'd',
                     '--pidfile', 'p', '--aio-dir', aio_dir])
        self.assertEqual(0, code, err)
        self.assertIn('embedded cloud stopped', out)

    def test_epmd_stops_after_every_other_program(self):
        # RabbitMQ starts an epmd of its own when ours stops before it.
        sup = aioctl.Supervisor('c', 'ctl', 'd', 'p')
        status = ('epmd RUNNING pid 1\nrabbitmq RUNNING pid 2\n'
                  'nova-api RUNNING pid 3\n')
        with mock.patch.object(aioctl.Supervisor, 'call', autospec=True,
                               side_effect=[status, '', '']) as call:
            sup.stop_all()
        self.assertEqual(
            [mock.call(sup, 'status', check=False),
             mock.call(sup, 'stop', 'rabbitmq', 'nova-api', check=False),
             mock.call(sup, 'stop', 'epmd', check=False)],
            call.call_args_list)


class TestCached(AioctlTestCase):

    def cached(self, data, key='k', fail=False):
        counter = os.path.join(self.tmp, 'runs')
        script = ('cat; echo; echo run >> %s; %s' % (
            counter, 'exit 3' if fail else 'true'))
        stdin = mock.Mock(buffer=io.BytesIO(data))
        with mock.patch.object(aioctl.sys, 'stdin', stdin):
            result = self.run_main(
                ['cached', '--file', os.path.join(self.tmp, 'c', 'out'),
                 '--key', key, '--', 'bash', '-c', script])
        runs = 0
        if os.path.exists(counter):
            with open(counter) as f:
                runs = len(f.readlines())
        return result, runs

    def test_runs_once_per_input_then_replays(self):
        (code, out, _), runs = self.cached(b'{"a": 1}')
        self.assertEqual((0, '{"a": 1}\n', 1), (code, out, runs))
        (code, out, _), runs = self.cached(b'{"a": 1}')
        self.assertEqual((0, 'CACHED\n{"a": 1}\n', 1), (code, out, runs))
        (code, out, _), runs = self.cached(b'{"a": 2}')
        self.assertEqual((0, '{"a": 2}\n', 2), (code, out, runs))
        (code, out, _), runs = self.cached(b'{"a": 2}', key='other nova')
        self.assertEqual((0, '{"a": 2}\n', 3), (code, out, runs))

    def test_failure_is_not_cached(self):
        (code, _, _), runs = self.cached(b'x', fail=True)
        self.assertEqual((3, 1), (code, runs))
        (code, out, _), runs = self.cached(b'x')
        self.assertEqual((0, 'x\n', 2), (code, out, runs))


class TestRunMany(AioctlTestCase):

    def run_many(self, steps):
        stdin = io.StringIO(json.dumps(steps))
        with mock.patch.object(aioctl.sys, 'stdin', stdin):
            return self.run_main(['run-many'])

    def step(self, name, cmd, marker=True):
        step = {'name': name, 'what': name + ' db sync',
                'log': os.path.join(self.tmp, 'logs', name + '.log'),
                'cmd': ['bash', '-c', cmd]}
        if marker:
            step['marker'] = os.path.join(self.tmp, name + '-synced')
        return step

    def test_runs_concurrently_and_marks_each(self):
        # b waits for a file that a writes: only concurrent runs finish.
        flag = os.path.join(self.tmp, 'flag')
        code, out, _ = self.run_many([
            self.step('b', 'for i in $(seq 100); do test -e %s && exit 0; '
                           'sleep 0.05; done; exit 1' % flag),
            self.step('a', 'touch %s' % flag)])
        self.assertEqual((0, 'CHANGED\n'), (code, out))
        self.assertTrue(os.path.exists(os.path.join(self.tmp, 'a-synced')))
        self.assertTrue(os.path.exists(os.path.join(self.tmp, 'b-synced')))
        code, out, _ = self.run_many([self.step('a', 'exit 9'),
                                      self.step('b', 'exit 9')])
        self.assertEqual((0, ''), (code, out), 'markers skip done steps')

    def test_failure_names_service_what_and_log(self):
        code, _, err = self.run_many([
            self.step('glance', 'true'),
            self.step('neutron', 'echo no such table; exit 4'),
            self.step('nova', 'exit 5', marker=False)])
        self.assertEqual(1, code)
        log = os.path.join(self.tmp, 'logs', 'neutron.log')
        self.assertIn('ERROR: neutron: neutron db sync failed (exit 4); '
                      'see %s' % log, err)
        self.assertIn('no such table', err)
        self.assertIn('ERROR: nova: nova db sync failed (exit 5)', err)
        self.assertTrue(os.path.exists(os.path.join(self.tmp,
                                                    'glance-synced')))
        self.assertFalse(os.path.exists(os.path.join(self.tmp,
                                                     'neutron-synced')))
