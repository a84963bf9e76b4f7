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
"""The devstack plugin, run without devstack (doc/source/devstack.rst).

Each test runs ``stack`` as stack.sh does for a plugin: devstack/settings
sourced once, then plugin.sh sourced for the phases pre-install,
post-config and test-config, with devstack's functions replaced by the
stand-ins of devstack_fakes.sh and devstack's own writes (nova.conf's
service_down_time, tempest.conf's [compute] max_microversion) simulated.
The files it writes are read back: nova.conf, policy.yaml and tempest.conf,
the last one through the plugin's own claims parser and consistency check.
A nova checkout is a small git repository with a small series made here;
test_real_series applies reference/nova/patches to the nova 34.0.0 sdist
when it is in the local cache.
"""

import configparser
import itertools
import os
import shutil
import socket
import subprocess
import tarfile
import tempfile
import types

from oslotest import base
import yaml

from pending_tempest_plugin.common import features
from pending_tempest_plugin.conformance import claims as claims_mod
from pending_tempest_plugin.conformance import policy_profiles

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FAKES = os.path.join(HERE, 'devstack_fakes.sh')
UNRELATED_RULE = {'os_compute_api:os-hypervisors:list': 'role:admin'}
# Where reference/nova/tools/prepare-tree and run-tests cache the nova
# sdist (read at import: oslotest gives each test a HOME of its own).
SDIST_CACHES = (os.environ.get('NOVA_REFERENCE_CACHE'),
                os.path.join(REPO, '.nova-reference', 'cache'),
                os.path.join(os.environ.get('XDG_CACHE_HOME')
                             or os.path.expanduser('~/.cache'),
                             'nova-reference'))
ALL_SERVICES = 'n-api,n-cond,n-sch,n-cpu,placement-api,tempest'

# What stack.sh does around the plugin's phases, in order.
STACK = r'''
set -e
source "$FAKES"
source "$PLUGIN/devstack/settings"
source "$PLUGIN/devstack/plugin.sh" stack pre-install
mkdir -p "$NOVA_CONF_DIR"
iniset "$NOVA_CONF" DEFAULT service_down_time "$FAKE_SERVICE_DOWN_TIME"
source "$PLUGIN/devstack/plugin.sh" stack post-config
iniset "$TEMPEST_CONFIG" compute max_microversion "$FAKE_TEMPEST_MAX_MV"
source "$PLUGIN/devstack/plugin.sh" stack test-config
'''


def _git(tree, *args):
    subprocess.run(['git', '-C', tree, '-c', 'user.name=t',
                    '-c', 'user.email=t@example.org',
                    '-c', 'commit.gpgsign=false'] + list(args),
                   check=True, capture_output=True)


def _read_ini(path):
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(path)
    return parser


class DevstackPluginTest(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.fresh_node()

    def fresh_node(self):
        """New directories: a node that never ran stack."""
        self.tmp = tempfile.mkdtemp(prefix='pending-devstack-')
        self.addCleanup(shutil.rmtree, self.tmp)
        self.nova_dir = os.path.join(self.tmp, 'nova')
        self.series = os.path.join(self.tmp, 'series')
        self.nova_conf_dir = os.path.join(self.tmp, 'etc', 'nova')
        self.policy = os.path.join(self.nova_conf_dir, 'policy.yaml')
        self.tempest_conf = os.path.join(self.tmp, 'tempest.conf')
        self.nova_conf = os.path.join(self.nova_conf_dir, 'nova.conf')
        self._fake_nova()

    def _fake_nova(self):
        """A nova checkout and a two-patch series that applies to it."""
        os.makedirs(os.path.join(self.nova_dir, 'nova'))
        os.makedirs(self.series)
        conf = os.path.join(self.nova_dir, 'nova', 'conf.py')
        with open(conf, 'w') as f:
            f.write('OPTS = []\n')
        _git(self.nova_dir, 'init', '-q', '-b', 'master')
        _git(self.nova_dir, 'add', '-A')
        _git(self.nova_dir, 'commit', '-q', '-m', 'nova')
        for n, line in ((1, "OPTS.append('use_pending_state')\n"),
                        (2, "OPTS.append('cell0_rebuild')\n")):
            with open(conf, 'a') as f:
                f.write(line)
            diff = subprocess.run(['git', '-C', self.nova_dir, 'diff'],
                                  check=True, capture_output=True).stdout
            self.write_patch('%04d-step-%d.patch' % (n, n), diff)
            _git(self.nova_dir, 'commit', '-q', '-a', '-m', 'step')
        _git(self.nova_dir, 'reset', '-q', '--hard', 'HEAD~2')

    def write_patch(self, name, content):
        with open(os.path.join(self.series, name), 'wb') as f:
            f.write(content)

    def env(self, **variables):
        env = {
            'PATH': os.environ['PATH'], 'HOME': self.tmp, 'LC_ALL': 'C',
            'FAKES': FAKES, 'PLUGIN': REPO,
            'ENABLED_SERVICES': ALL_SERVICES,
            'NOVA_DIR': self.nova_dir, 'NOVA_REPO': self.nova_dir,
            'NOVA_BRANCH': 'master',
            'NOVA_REFERENCE_PATCHES': self.series,
            'NOVA_CONF_DIR': self.nova_conf_dir, 'NOVA_CONF': self.nova_conf,
            'TEMPEST_CONFIG': self.tempest_conf,
            'FAKE_SERVICE_DOWN_TIME': '720', 'FAKE_TEMPEST_MAX_MV': 'latest',
        }
        env.update({k: str(v) for k, v in variables.items()})
        return env

    def stack(self, expect_rc=0, **variables):
        result = subprocess.run(['bash', '-c', STACK],
                                env=self.env(**variables),
                                capture_output=True, text=True)
        if expect_rc is not None:
            self.assertEqual(
                expect_rc, result.returncode,
                'stdout:\n%s\nstderr:\n%s' % (result.stdout, result.stderr))
        return result

    def snapshot(self):
        """What a stack run may write: the files, the nova tree.

        policy.yaml with its mtime, which oslo.policy watches (devstack's
        iniset rewrites an ini file even to set the same value).
        """
        files = {}
        for path in (self.nova_conf, self.policy, self.tempest_conf):
            if os.path.exists(path):
                with open(path, 'rb') as f:
                    files[path] = f.read()
        if os.path.exists(self.policy):
            files['mtime'] = os.stat(self.policy).st_mtime_ns
        tree = subprocess.run(['git', '-C', self.nova_dir, 'diff'],
                              check=True, capture_output=True).stdout
        return files, tree

    def policy_rules(self):
        with open(self.policy) as f:
            return yaml.safe_load(f)

    def claims(self):
        parser = _read_ini(self.tempest_conf)
        claims = claims_mod.from_conf(parser.items('nova_conformance'),
                                      self.tempest_conf)
        self.assertEqual([], features.config_problems(
            types.SimpleNamespace(**claims)))
        return claims, parser

    def assertDies(self, message, **variables):
        result = self.stack(expect_rc=None, **variables)
        self.assertNotEqual(0, result.returncode, result.stdout)
        self.assertIn(message, result.stderr)
        return result

    # -- the matrix ---------------------------------------------------------

    def test_every_profile_and_option_twice(self):
        combos = itertools.product(
            policy_profiles.NAMES, ('True', 'False'), ('True', 'False'),
            ('', 'cn1'))
        for profile, series, pending, hosts in combos:
            if pending == 'True' and series == 'False':
                continue   # refused: test_pending_without_microversion
            with self.subTest(profile=profile, series=series,
                              pending=pending, hosts=hosts):
                self.fresh_node()
                os.makedirs(self.nova_conf_dir)
                with open(self.policy, 'w') as f:
                    yaml.safe_dump(UNRELATED_RULE, f)
                variables = dict(NOVA_HOST_STATUS_POLICY_PROFILE=profile,
                                 NOVA_REFERENCE_SERIES=series,
                                 NOVA_USE_PENDING_STATE=pending,
                                 PENDING_CONFORMANCE_DISRUPTIVE_HOSTS=hosts)
                self.stack(**variables)
                self.check_outputs(profile, series, pending, hosts)
                first = self.snapshot()
                second_run = self.stack(**variables)
                self.assertEqual(first, self.snapshot(),
                                 'a second stack changed a file')
                self.check_outputs(profile, series, pending, hosts)
                if series == 'True':
                    self.assertIn('already applied', second_run.stdout)

    def check_outputs(self, profile, series, pending, hosts):
        # nova.conf
        nova = _read_ini(self.nova_conf)
        if series == 'True' or pending == 'True':
            self.assertEqual(pending,
                             nova.get('DEFAULT', 'use_pending_state'))
        else:
            self.assertFalse(nova.has_option('DEFAULT', 'use_pending_state'))
        self.assertEqual(self.policy,
                         nova.get('oslo_policy', 'policy_file'))
        # policy.yaml: the profile's rules, the unrelated rule kept
        expected = dict(UNRELATED_RULE)
        expected.update(policy_profiles.rules(profile))
        self.assertEqual(expected, self.policy_rules())
        # the series
        with open(os.path.join(self.nova_dir, 'nova', 'conf.py')) as f:
            conf_py = f.read()
        self.assertEqual(series == 'True', 'cell0_rebuild' in conf_py)
        # tempest.conf, through the plugin's own parser and checks
        claims, parser = self.claims()
        self.assertEqual(profile, claims['host_status_policy_profile'])
        self.assertEqual(pending == 'True', claims['pending_state_enabled'])
        self.assertEqual('2.105' if series == 'True' else None,
                         claims['pending_state_microversion'])
        self.assertEqual('2.106' if series == 'True' else None,
                         claims['cell0_rebuild_microversion'])
        self.assertEqual(bool(hosts), claims['disruptive_tests'])
        self.assertEqual([hosts] if hosts else [],
                         claims['disruptive_hosts'])
        self.assertEqual('sudo -n systemctl stop devstack@n-cpu'
                         if hosts else None, claims['compute_stop_command'])
        self.assertEqual('sudo -n systemctl start devstack@n-cpu'
                         if hosts else None, claims['compute_start_command'])
        self.assertEqual([hosts] if hosts else [socket.gethostname()],
                         claims['capacity_hosts'])
        self.assertEqual(3600, claims['service_state_timeout'])
        for key in parser.options('nova_conformance'):
            self.assertNotEqual('', parser.get('nova_conformance', key), key)

    # -- policy -------------------------------------------------------------

    def test_switching_profiles_leaves_no_rule_behind(self):
        self.stack(NOVA_HOST_STATUS_POLICY_PROFILE='admin_or_owner')
        self.stack(NOVA_HOST_STATUS_POLICY_PROFILE='unknown_only')
        self.assertEqual(policy_profiles.rules('unknown_only'),
                         self.policy_rules())
        self.stack(NOVA_HOST_STATUS_POLICY_PROFILE='admin_only')
        self.assertEqual({}, self.policy_rules())

    def test_admin_only_on_a_fresh_node_writes_no_policy_file(self):
        self.stack()
        self.assertFalse(os.path.exists(self.policy))
        self.assertFalse(_read_ini(self.nova_conf).has_section('oslo_policy'))

    def test_without_n_api_no_policy(self):
        self.stack(NOVA_HOST_STATUS_POLICY_PROFILE='admin_or_owner',
                   ENABLED_SERVICES='n-cpu,tempest')
        self.assertFalse(os.path.exists(self.policy))

    def test_without_tempest_no_tempest_conf(self):
        self.stack(ENABLED_SERVICES='n-api,n-cond,n-cpu',
                   FAKE_TEMPEST_MAX_MV='')
        self.assertFalse(os.path.exists(self.tempest_conf) and _read_ini(
            self.tempest_conf).has_section('nova_conformance'))

    # -- tempest.conf -------------------------------------------------------

    def test_service_state_timeout_follows_service_down_time(self):
        self.stack(FAKE_SERVICE_DOWN_TIME='12')
        self.assertEqual(60, self.claims()[0]['service_state_timeout'])
        self.stack(PENDING_CONFORMANCE_SERVICE_STATE_TIMEOUT='900')
        self.assertEqual(900, self.claims()[0]['service_state_timeout'])

    def test_notification_bus(self):
        self.stack(PENDING_CONFORMANCE_NOTIFICATIONS='True',
                   RABBIT_PASSWORD='rabbit-pw')
        nova = _read_ini(self.nova_conf)
        self.assertEqual('messagingv2', nova.get(
            'oslo_messaging_notifications', 'driver'))
        self.assertEqual('both', nova.get('notifications',
                                          'notification_format'))
        self.assertEqual('vm_and_task_state', nova.get(
            'notifications', 'notify_on_state_change'))
        claims, _ = self.claims()
        self.assertEqual('rabbit://stackrabbit:rabbit-pw@127.0.0.1:5672/',
                         claims['notification_transport_url'])
        # Off again: the suite is no longer given the bus.
        self.stack(PENDING_CONFORMANCE_NOTIFICATIONS='False')
        self.assertFalse(_read_ini(self.tempest_conf).has_option(
            'nova_conformance', 'notification_transport_url'))

    def test_max_microversion(self):
        for pinned, expected in (('latest', 'latest'), ('2.100', '2.106'),
                                 ('2.110', '2.110')):
            with self.subTest(pinned=pinned):
                self.stack(NOVA_REFERENCE_SERIES='True',
                           FAKE_TEMPEST_MAX_MV=pinned)
                self.assertEqual(expected, _read_ini(self.tempest_conf).get(
                    'compute', 'max_microversion'))
        self.stack(FAKE_TEMPEST_MAX_MV='2.90')
        self.assertEqual('2.90', _read_ini(self.tempest_conf).get(
            'compute', 'max_microversion'))

    def test_hosts_with_their_own_commands(self):
        self.stack(PENDING_CONFORMANCE_DISRUPTIVE_HOSTS='cn1,cn2',
                   PENDING_CONFORMANCE_COMPUTE_STOP_COMMAND='ssh {host} '
                   'sudo -n systemctl stop devstack@n-cpu',
                   PENDING_CONFORMANCE_COMPUTE_START_COMMAND='ssh {host} '
                   'sudo -n systemctl start devstack@n-cpu')
        claims = self.claims()[0]
        self.assertEqual(['cn1', 'cn2'], claims['disruptive_hosts'])
        self.assertEqual(['cn1', 'cn2'], claims['capacity_hosts'])
        self.stack(PENDING_CONFORMANCE_CAPACITY_HOSTS='cn2')
        self.assertEqual(['cn2'], self.claims()[0]['capacity_hosts'])
        self.assertEqual('ssh {host} sudo -n systemctl stop devstack@n-cpu',
                         claims['compute_stop_command'])

    def test_host_cells_claimed_only_when_set(self):
        self.stack(PENDING_CONFORMANCE_CAPACITY_HOSTS='cn2,cn1',
                   PENDING_CONFORMANCE_COMPUTE_HOST_CELLS='cn1:cell1,'
                   'cn2:cell2')
        claims = self.claims()[0]
        self.assertEqual({'cn1': 'cell1', 'cn2': 'cell2'},
                         claims['compute_host_cells'])
        self.stack()
        self.assertEqual({}, self.claims()[0]['compute_host_cells'])

    # -- refused input ------------------------------------------------------

    def test_pending_without_microversion(self):
        self.assertDies('NOVA_USE_PENDING_STATE=True needs '
                        'PENDING_STATE_MICROVERSION',
                        NOVA_USE_PENDING_STATE='True')
        self.assertFalse(os.path.exists(self.nova_conf))

    def test_pending_with_an_explicit_microversion(self):
        self.stack(NOVA_USE_PENDING_STATE='True',
                   PENDING_STATE_MICROVERSION='2.120')
        claims = self.claims()[0]
        self.assertEqual('2.120', claims['pending_state_microversion'])
        self.assertIsNone(claims['cell0_rebuild_microversion'])

    def test_refused_settings(self):
        for message, variables in (
                ('is not a profile of', dict(
                    NOVA_HOST_STATUS_POLICY_PROFILE='everyone')),
                ('is not a profile of', dict(
                    NOVA_HOST_STATUS_POLICY_PROFILE='admin.*')),
                ('is not a compute microversion', dict(
                    CELL0_REBUILD_MICROVERSION='latest')),
                ('is not a number of seconds', dict(
                    PENDING_CONFORMANCE_SERVICE_STATE_TIMEOUT='5m')),
                ('is not a comma separated list', dict(
                    PENDING_CONFORMANCE_DISRUPTIVE_HOSTS='cn1, cn2')),
                ('they would stop the same compute', dict(
                    PENDING_CONFORMANCE_DISRUPTIVE_HOSTS='cn1,cn2')),
                ('needs both', dict(
                    PENDING_CONFORMANCE_DISRUPTIVE_HOSTS='cn1',
                    PENDING_CONFORMANCE_COMPUTE_START_COMMAND=' ')),
                ('RECLONE=True', dict(NOVA_REFERENCE_SERIES='True',
                                      RECLONE='yes')),
                ('re-fetches a refs/ branch', dict(
                    NOVA_REFERENCE_SERIES='True',
                    NOVA_BRANCH='refs/changes/12/3412/1'))):
            with self.subTest(message=message, **variables):
                self.assertDies(message, **variables)
                self.assertFalse(os.path.exists(self.tempest_conf))

    # -- the series ---------------------------------------------------------

    def test_failing_patch_is_named_and_the_tree_left_as_it_was(self):
        self.write_patch('0003-broken.patch',
                         b'--- a/nova/conf.py\n+++ b/nova/conf.py\n'
                         b'@@ -1 +1 @@\n-NOT THERE\n+X\n')
        result = self.assertDies('0003-broken.patch does not apply',
                                 NOVA_REFERENCE_SERIES='True')
        self.assertIn('left as it was', result.stderr)
        self.assertEqual(b'', self.snapshot()[1])

    def test_a_changed_series_replaces_the_applied_one(self):
        self.stack(NOVA_REFERENCE_SERIES='True')
        os.unlink(os.path.join(self.series, '0002-step-2.patch'))
        result = self.stack(NOVA_REFERENCE_SERIES='True')
        self.assertIn('replacing the reference series', result.stdout)
        with open(os.path.join(self.nova_dir, 'nova', 'conf.py')) as f:
            conf_py = f.read()
        self.assertIn('use_pending_state', conf_py)
        self.assertNotIn('cell0_rebuild', conf_py)

    def test_a_reset_checkout_gets_the_series_again(self):
        self.stack(NOVA_REFERENCE_SERIES='True')
        _git(self.nova_dir, 'checkout', '--', '.')
        result = self.stack(NOVA_REFERENCE_SERIES='True')
        self.assertIn('applied 0002-step-2.patch', result.stdout)

    def test_missing_checkout_is_cloned_first(self):
        origin = os.path.join(self.tmp, 'origin')
        os.rename(self.nova_dir, origin)
        self.stack(NOVA_REFERENCE_SERIES='True', NOVA_REPO=origin)
        with open(os.path.join(self.nova_dir, 'nova', 'conf.py')) as f:
            self.assertIn('cell0_rebuild', f.read())

    def test_real_series(self):
        """reference/nova/patches on the nova 34.0.0 sdist, if cached."""
        sdists = [os.path.join(c, 'nova-34.0.0.tar.gz') for c in SDIST_CACHES
                  if c and os.path.exists(
                      os.path.join(c, 'nova-34.0.0.tar.gz'))]
        if not sdists:
            self.skipTest('nova-34.0.0.tar.gz is not in the cache of '
                          'reference/nova/tools/prepare-tree')
        shutil.rmtree(self.nova_dir)
        with tarfile.open(sdists[0]) as tar:
            tar.extractall(self.tmp, filter='data')
        os.rename(os.path.join(self.tmp, 'nova-34.0.0'), self.nova_dir)
        _git(self.nova_dir, 'init', '-q', '-b', 'master')
        _git(self.nova_dir, 'add', '-A')
        _git(self.nova_dir, 'commit', '-q', '-m', 'nova 34.0.0')
        real = os.path.join(REPO, 'reference', 'nova', 'patches')
        result = self.stack(NOVA_REFERENCE_SERIES='True',
                            NOVA_REFERENCE_PATCHES=real)
        count = len([p for p in os.listdir(real) if p.endswith('.patch')])
        self.assertEqual(count, result.stdout.count('applied 0'))
        first = self.snapshot()
        result = self.stack(NOVA_REFERENCE_SERIES='True',
                            NOVA_REFERENCE_PATCHES=real)
        self.assertIn('already applied', result.stdout)
        self.assertEqual(first, self.snapshot())


class SettingsTest(base.BaseTestCase):

    def test_series_microversions_are_the_embedded_clouds(self):
        with open(os.path.join(REPO, 'playbooks', 'group_vars',
                               'all.yaml')) as f:
            aio = yaml.safe_load(f)['aio_reference_microversions']
        out = subprocess.run(
            ['bash', '-c', 'source "$0"; source "$1"; '
             'echo "$PENDING_STATE_MICROVERSION $CELL0_REBUILD_MICROVERSION"',
             FAKES, os.path.join(REPO, 'devstack', 'settings')],
            env={'PATH': os.environ['PATH'], 'NOVA_REFERENCE_SERIES': 'yes'},
            check=True, capture_output=True, text=True).stdout.split()
        self.assertEqual([aio['pending_state_microversion'],
                          aio['cell0_rebuild_microversion']], out)
