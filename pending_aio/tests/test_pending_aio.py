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
"""The embedded cloud's command (pending_aio) without a cloud."""

import importlib
import io
import json
import os

import fixtures
from oslotest import base

import pending_aio
from pending_aio.bench import runs as bench
from pending_aio import checks
from pending_aio import cli
from pending_aio.cloud import clean
from pending_aio.cloud import control as cloud
from pending_aio.cloud import host
from pending_aio.stages import plugin_legs
from pending_aio.stages import upgrade
from pending_aio.stages import venv_steps as stages
from pending_tempest_plugin.unit_tests import fakes


class Exec(Exception):
    """Raised by the stand-in of os.execvpe: what would have run."""


class TestCloud(fakes.FileTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.EnvironmentVariable('AIO_DIR', self.tmp))
        self.useFixture(fixtures.EnvironmentVariable('ANSIBLE_CONFIG'))
        self.useFixture(fixtures.EnvironmentVariable('AIO_BASE_VARS'))
        self.useFixture(fixtures.EnvironmentVariable('AIO_EXTRA_VARS'))
        self.useFixture(fixtures.EnvironmentVariable('PYTHONPATH'))

        def execvpe(file, argv, env):
            raise Exec(argv, dict(env))
        self.useFixture(fixtures.MockPatchObject(cloud.os, 'execvpe',
                                                 execvpe))

    def test_up_passes_base_then_extra_vars_then_arguments(self):
        os.environ['AIO_BASE_VARS'] = 'a=1  b=2'
        os.environ['AIO_EXTRA_VARS'] = 'a=3'
        os.environ['PYTHONPATH'] = pending_aio.REPO + os.pathsep + '/x'
        argv, env = self.assertRaises(Exec, cloud.up, ['-v']).args
        self.assertEqual(
            ['ansible-playbook',
             os.path.join(pending_aio.REPO, 'playbooks', 'aio.yaml'),
             '-e', 'a=1', '-e', 'b=2', '-e', 'a=3', '-v'], argv)
        self.assertEqual(os.path.join(pending_aio.REPO, 'playbooks',
                                      'ansible.cfg'), env['ANSIBLE_CONFIG'])
        self.assertEqual(self.tmp, env['AIO_DIR'])
        # The checkout is on PYTHONPATH for python -m pending_aio only.
        self.assertEqual('/x', env['PYTHONPATH'])

    def test_down_and_status_without_a_cloud(self):
        self.useFixture(fixtures.MockPatch('builtins.print'))
        self.assertEqual(0, cloud.down([]))
        self.assertEqual(3, cloud.status([]))

    def test_down_refuses_an_unknown_argument(self):
        self.useFixture(fixtures.MockPatch('sys.stderr', io.StringIO()))
        self.assertEqual(2, cloud.down(['--force']))

    def _aio_env(self):
        checks_json = json.dumps({'keystone': {'port': 5000}})
        self.write('state/aio.env',
                   '# written by up\n'
                   'AIO_SUP_ARGS="--conf /c --ctl /ctl"\n'
                   'AIO_NETNS="ns1 ns2"\n'
                   "AIO_STATUS_CHECKS='%s'\n" % checks_json)
        return checks_json

    def test_down_calls_aioctl_with_the_state_of_the_last_up(self):
        self._aio_env()
        argv, _ = self.assertRaises(Exec, cloud.down, ['--purge']).args
        self.assertEqual(
            ['python3', cloud.AIOCTL, 'down', '--conf', '/c', '--ctl',
             '/ctl', '--aio-dir', self.tmp, '--netns', 'ns1', '--netns',
             'ns2', '--purge'], argv)

    def test_status_calls_aioctl_with_its_checks(self):
        checks_json = self._aio_env()
        argv, _ = self.assertRaises(Exec, cloud.status, []).args
        self.assertEqual(
            ['python3', cloud.AIOCTL, 'status', '--conf', '/c', '--ctl',
             '/ctl', '--checks', checks_json], argv)


class TestCli(base.BaseTestCase):

    def test_unknown_subcommand_and_help(self):
        err = self.useFixture(fixtures.MockPatch('sys.stderr',
                                                 io.StringIO())).mock
        self.assertEqual(2, cli.main(['nope']))
        self.assertIn("no subcommand 'nope'", err.getvalue())
        self.assertEqual(2, cli.main([]))
        out = self.useFixture(fixtures.MockPatch('sys.stdout',
                                                 io.StringIO())).mock
        self.assertEqual(0, cli.main(['--help']))
        for name in cli.SUBCOMMANDS:
            self.assertIn('  %s ' % name, out.getvalue())

    def test_every_subcommand_names_a_function(self):
        # Those the unit tests' venv can import (no openstacksdk needed).
        for name, (module, function, _) in cli.SUBCOMMANDS.items():
            if module in ('pending_aio.cloud.control',
                          'pending_aio.bench.runs',
                          'pending_aio.mutants.mutant',
                          'pending_aio.stages.functional',
                          'pending_aio.stages.plugin_legs',
                          'pending_aio.stages.bad_input',
                          'pending_aio.stages.runner_stage',
                          'pending_aio.stages.conformance'):
                self.assertTrue(callable(getattr(
                    importlib.import_module(module), function)), name)
            path = os.path.join(pending_aio.REPO,
                                *module.split('.')) + '.py'
            self.assertTrue(os.path.isfile(path), name)

    def test_dispatch(self):
        called = []
        self.useFixture(fixtures.MockPatchObject(
            cloud, 'rss', lambda argv: called.append(argv) or 0))
        self.assertEqual(0, cli.main(['rss', 'x']))
        self.assertEqual([['x']], called)


class TestChecks(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MockPatch('time.sleep'))
        self.out = self.useFixture(fixtures.MockPatch(
            'sys.stdout', io.StringIO())).mock

    def test_wait_for_returns_the_value(self):
        values = iter([None, 0, 'ready'])
        self.assertEqual('ready', checks.wait_for(
            'x', lambda: next(values), timeout=10, interval=0))

    def test_wait_for_fails_the_check_at_the_timeout(self):
        exc = self.assertRaises(SystemExit, checks.wait_for, 'the thing',
                                lambda: False, timeout=0, interval=0)
        self.assertEqual(1, exc.code)
        self.assertIn('FAIL: timed out after 0s waiting for the thing',
                      self.out.getvalue())

    def test_wait_or_exit(self):
        exc = self.assertRaises(SystemExit, checks.wait_or_exit, 'x',
                                lambda: False, 0, 0, 'tool: gave up')
        self.assertEqual('tool: gave up', exc.code)


class TestPluginLegs(fakes.FileTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.EnvironmentVariable('AIO_DIR', self.tmp))

    def test_a_stopped_cloud_is_named_before_any_leg(self):
        self.assertFalse(plugin_legs.cloud_running())
        os.makedirs(os.path.join(self.tmp, 'run'))
        pidfile = os.path.join(self.tmp, 'run', 'supervisord.pid')
        with open(pidfile, 'w') as f:
            f.write('not a pid\n')
        self.assertFalse(plugin_legs.cloud_running())
        with open(pidfile, 'w') as f:
            f.write('%d\n' % os.getpid())
        self.assertTrue(plugin_legs.cloud_running())

    def test_body_stops_with_a_clear_error(self):
        err = io.StringIO()
        self.useFixture(fixtures.MockPatch('sys.stderr', err))
        exc = self.assertRaises(SystemExit, plugin_legs.body, None)
        self.assertEqual(2, exc.code)
        self.assertIn('start it with tox -e aio', err.getvalue())

    def test_the_stock_leg_needs_no_running_cloud(self):
        # The functional stage runs the stock leg first, before any `up`:
        # the leg brings up its own cloud.
        self.useFixture(fixtures.EnvironmentVariable('FUNCTIONAL_LEGS',
                                                     'stock'))
        self.useFixture(fixtures.EnvironmentVariable('FUNCTIONAL_RESTORE',
                                                     '0'))
        stock = self.useFixture(fixtures.MockPatch(
            'pending_aio.stages.plugin_legs.leg_stock')).mock
        plugin_legs.body(None)
        stock.assert_called_once_with()


class TestUpgradeConfig(fakes.FileTestCase):

    def test_options_set_in_place_or_added(self):
        conf = os.path.join(self.tmp, 'nova.conf')
        with open(conf, 'w') as f:
            f.write('[DEFAULT]\ndebug = true\nuse_pending_state = false\n'
                    '\n[api]\nauth_strategy = keystone\n')
        upgrade.set_options(conf, {
            ('DEFAULT', 'use_pending_state'): 'true',
            ('upgrade_levels', 'compute'): 'auto',
            ('api', 'list_records_by_skipping_down_cells'): 'false'})
        with open(conf) as f:
            text = f.read()
        self.assertEqual(
            '[DEFAULT]\ndebug = true\nuse_pending_state = true\n\n'
            '[api]\nlist_records_by_skipping_down_cells = false\n'
            'auth_strategy = keystone\n\n[upgrade_levels]\n'
            'compute = auto\n', text)

    def test_status_result_of_one_check(self):
        out = ('+-----+\n| Check: Cells v2 |\n| Result: Success |\n'
               '| Details: None |\n+-----+\n'
               '| Check: PENDING state and nova-api versions |\n'
               '| Result: Warning |\n| Details: old |\n+-----+\n')
        self.assertEqual('Warning', upgrade.status_result(
            out, upgrade.PENDING_CHECK))
        self.assertEqual('Success', upgrade.status_result(out, 'Cells v2'))
        self.assertIsNone(upgrade.status_result(out, 'Placement API'))

    def test_the_leg_mutant_is_defined(self):
        from pending_aio.mutants import mutant
        spec = mutant.DEFINITIONS.LEG_MUTANTS[upgrade.GUARD_MUTANT]
        self.assertEqual('upgrade', spec['leg'])
        self.assertNotIn(upgrade.GUARD_MUTANT, mutant.MUTANTS)


class TestTraitWrites(base.BaseTestCase):

    def test_only_tempests_trait_writes_count(self):
        lines = [
            '127.0.0.1 - - [27/Nov/2026:17:40:28 +0000] "PUT /resource_'
            'providers/7e8968f7-9ae9/traits HTTP/1.1" 200 554 "-" '
            '"python-urllib3/2.8.0"\n',
            '127.0.0.1 - - [27/Nov/2026:17:40:29 +0000] "PUT /resource_'
            'providers/7e8968f7-9ae9/traits HTTP/1.1" 500 312 "-" '
            '"python-urllib3/2.8.0"\n',
            # nova-compute writes its own provider's traits.
            '127.0.0.1 - - [27/Nov/2026:17:39:13 +0000] "PUT /resource_'
            'providers/6bac2ef0-217f/traits HTTP/1.1" 200 535 "-" '
            '"nova-compute keystoneauth1/5.18.1 python-requests/2.34.2"\n',
            # A read, and placement's own request log line.
            '127.0.0.1 - - [27/Nov/2026:17:39:14 +0000] "GET /resource_'
            'providers/6bac2ef0-217f/traits HTTP/1.1" 200 535 "-" '
            '"python-urllib3/2.8.0"\n',
            '2026-11-27 17:37:19.254 29565 INFO placement.requestlog [req-1] '
            '127.0.0.1 "PUT /resource_providers/6bac2ef0-217f/traits" '
            'status: 200 len: 508 microversion: 1.6\n']
        self.assertEqual({'7e8968f7-9ae9': 2}, clean.trait_writes(lines))


class TestBench(fakes.FileTestCase):

    def test_phases(self):
        self.write('cold.jsonl', '\n'.join(json.dumps(r) for r in [
            {'task': 'packages | install', 'seconds': 10.0},
            {'task': 'python | venv', 'seconds': 5.0},
            {'task': 'seed | flavors', 'seconds': 1.5},
            {'task': 'something else', 'seconds': 2.0}]) + '\n')
        self.write('cold.wall', '100.0 120.0\n')
        self.write('cold.cpu', '1000 1000\n1500 1500\n')
        out = self.useFixture(fixtures.MockPatch(
            'sys.stdout', io.StringIO())).mock
        self.assertEqual(0, bench.main([self.tmp, 'cold']))
        text = out.getvalue()
        self.assertIn('cold up: 20.0 s wall', text)
        self.assertIn('package install    10.0 s', text)
        self.assertIn('ansible/other       3.5 s', text)
        self.assertIn('cpu busy 50%', text)


class TestStages(fakes.FileTestCase):

    def setUp(self):
        super().setUp()
        self.out = self.useFixture(fixtures.MockPatch(
            'sys.stdout', io.StringIO())).mock

    def test_leg(self):
        claims = self.write('claims.yaml', 'pending_state_microversion: '
                            '"2.105"\npending_state_enabled: false\n'
                            'host_status_policy_profile: unknown_only\n')
        self.assertEqual(0, stages.main(['leg', claims]))
        stock = self.write('stock.yaml',
                           'host_status_policy_profile: admin_only\n')
        stages.main(['leg', stock])
        unified = self.write('unified.yaml',
                             'pending_state_microversion: "2.105"\n'
                             'pending_state_enabled: true\n'
                             'host_status_policy_profile: admin_or_owner\n'
                             'quota_counting: unified_limits\n')
        stages.main(['leg', unified])
        self.assertEqual('reference-pending-off-unknown_only\n'
                         'stock-pending-off-admin_only\n'
                         'reference-pending-on-admin_or_owner-'
                         'unified_limits\n',
                         self.out.getvalue())

    def test_apt_packages_with_missing(self):
        stages.main(['apt-packages-with-missing', os.path.join(
            pending_aio.REPO, 'playbooks', 'roles', 'aio_packages', 'defaults',
            'main.yaml')])
        packages = json.loads(self.out.getvalue())['aio_apt_packages']
        self.assertIn('aio-no-such-package', packages)
        self.assertIn('mariadb-server', packages)

    def test_member_run_with_an_admin_row_passing_fails(self):
        report = self.write('report.json', json.dumps({'requirements': [
            {'id': 'HS-16', 'outcome': 'pass', 'admin': False},
            {'id': 'HS-01', 'outcome': 'needs admin', 'admin': True},
            {'id': 'HS-02', 'outcome': 'pass', 'admin': True}]}))
        exc = self.assertRaises(SystemExit, stages.main,
                                ['runner-member', report])
        self.assertIn("admin rows read pass: ['HS-02']", str(exc))

    def test_usage(self):
        self.assertRaises(SystemExit, stages.main, ['leg'])
        self.assertRaises(SystemExit, stages.main, ['nope', 'x'])


class TestCheckHost(base.BaseTestCase):
    """check-host: what a local cloud shows other users."""

    SS = ('LISTEN 0 128 127.0.0.1:5000 0.0.0.0:* '
          'users:(("gunicorn",pid=10,fd=5),("gunicorn",pid=11,fd=5))\n'
          'LISTEN 0 128 0.0.0.0:25672 0.0.0.0:* users:(("beam.smp",pid=12,'
          'fd=9))\n'
          'LISTEN 0 128 [::1]:4369 [::]:* users:(("epmd",pid=13,fd=3))\n'
          'LISTEN 0 128 0.0.0.0:2024 0.0.0.0:* users:(("sshd",pid=14,fd=3))'
          '\n')

    def test_listeners_of_ss(self):
        self.assertEqual(
            [('127.0.0.1', '5000', 10), ('127.0.0.1', '5000', 11),
             ('0.0.0.0', '25672', 12), ('[::1]', '4369', 13),
             ('0.0.0.0', '2024', 14)],
            host.listeners(self.SS))

    def test_only_the_clouds_own_listeners_off_the_loopback(self):
        self.assertEqual(['0.0.0.0:25672 (pid 12)'],
                         host.exposed_listeners(self.SS,
                                                lambda pid: pid != 14))
        self.assertEqual([], host.exposed_listeners(
            self.SS, lambda pid: pid in (10, 13)))

    def test_a_secret_readable_by_others_is_found(self):
        tmp = self.useFixture(fixtures.TempDir()).path
        os.chmod(tmp, 0o755)

        def write(rel, content, mode):
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as f:
                f.write(content)
            os.chmod(path, mode)
        write('etc/nova/nova.conf', 'url = rabbit://u:S3cr3tS3cr3t@x', 0o644)
        write('logs/keystone.log', 'admin', 0o644)
        write('etc/keystone/keystone.conf', 'password = S3cr3tS3cr3t', 0o600)
        write('etc/policy.yaml', 'no secret here', 0o644)
        write('venvs/tools/lib/x.py', 'S3cr3tS3cr3t', 0o644)
        write('data/mysql/cells.ibd', 'S3cr3tS3cr3t', 0o660)
        write('data/locked/x.conf', 'S3cr3tS3cr3t', 0o644)
        os.chmod(os.path.join(tmp, 'data', 'locked'), 0o750)
        self.assertEqual(['etc/nova/nova.conf (mode 0644)'],
                         host.readable_secret_files(
                             tmp, ['S3cr3tS3cr3t', 'admin', '']))

    def test_a_sibling_directory_is_not_the_cloud(self):
        self.assertTrue(host.aio_supervisor.mentions(
            'gunicorn -c /x/.aio/etc/k.conf', '/x/.aio'))
        self.assertFalse(host.aio_supervisor.mentions(
            'gunicorn -c /x/.aio2/etc/k.conf', '/x/.aio'))
