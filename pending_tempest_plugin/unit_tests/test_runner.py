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
"""pending-conformance without a cloud: claims, tempest.conf, artifacts."""

import configparser
import io
import json
import os
from xml.etree import ElementTree

import fixtures
import testtools

from pending_tempest_plugin.conformance import claims
from pending_tempest_plugin.runner import artifacts
from pending_tempest_plugin.runner import cli
from pending_tempest_plugin.runner import discovery
from pending_tempest_plugin.runner import report
from pending_tempest_plugin.runner import workspace
from pending_tempest_plugin.unit_tests import fakes
from pending_tempest_plugin.unit_tests import test_report

FOUND = {
    'cloud_id': 'a1b2', 'region': 'RegionOne', 'admin': True,
    'auth_url': 'https://keystone.example:5000',
    'services': ['cinder', 'glance', 'neutron', 'nova', 'placement'],
    'volume_type': 'block-storage',
    'microversions': {'compute': ('2.1', '2.106'),
                      'volume': ('3.0', '3.71')},
    'images': ['img-1', 'img-1'], 'flavors': ['f1', 'f2'],
    'public_network_id': 'ext-1', 'network_extensions': ['router'],
    'compute_hosts': ['cn1', 'cn2'],
}


class TestClaims(fakes.FileTestCase):

    def test_claims_are_typed_and_defaulted(self):
        got = claims.load(self.write('c.yaml', (
            'pending_state_enabled: true\npending_state_microversion: 2.105\n'
            'host_status_policy_profile: unknown_only\nname: lab\n')))
        self.assertIs(True, got['pending_state_enabled'])
        self.assertEqual('2.105', got['pending_state_microversion'])
        self.assertIsNone(got['cell0_rebuild_microversion'])
        self.assertEqual('trait', got['novalidhost_trigger'])
        self.assertEqual('lab', got['name'])

    def test_bad_claims_say_what_is_wrong(self):
        for text, message in (
                ('- a\n', 'expected a mapping'),
                ('pending_state: true\n', "unknown claim 'pending_state'"),
                ('pending_state_enabled: "yes"\n', 'is not a boolean'),
                ('host_status_policy_profile: everyone\n',
                 'host_status_policy_profile'),
                ('pending_state_enabled: true\n',
                 'needs pending_state_microversion'),
                ('{[\n', 'is not YAML'),
                ('host_status_profile_services: {admin_only: compute-x}\n',
                 'names admin_only, the value of host_status_policy_'
                 'profile'),
                ('host_status_profile_services: {everyone: compute-x}\n',
                 "names 'everyone', not one of admin_only"),
                ('quota_counting_services: {db: compute-x}\n',
                 'names db, the value of quota_counting'),
                ('quota_counting_services: {nova: compute-x}\n',
                 "names 'nova', not one of db, placement, unified_limits"),
                ('host_status_profile_services: {admin_or_owner: c, '
                 'unknown_only: c}\n', 'one service type to several'),
                ('host_status_profile_services: {admin_or_owner: null}\n',
                 'is not a mapping of names to names'),
                ('host_status_profile_services: admin_or_owner\n',
                 'NAME:VALUE pairs'),
                ('quota_counting: {db: x}\n', 'is not a string or number')):
            e = self.assertRaises(claims.ClaimsError, claims.load,
                                  self.write('bad.yaml', text))
            self.assertIn(message, str(e))
        e = self.assertRaises(claims.ClaimsError, claims.load,
                              os.path.join(self.tmp, 'none.yaml'))
        self.assertIn('cannot read the claims file', str(e))

    def test_microversions_read_as_written(self):
        # YAML's float 2.110 would be 2.11: the claims file keeps the text.
        got = claims.load(self.write('c.yaml', (
            'pending_state_microversion: 2.110\n'
            'cell0_rebuild_microversion: "2.111"\n'
            'capacity_hosts: cn2\n'
            'poll_interval: 0.25\n')))
        self.assertEqual('2.110', got['pending_state_microversion'])
        self.assertEqual('2.111', got['cell0_rebuild_microversion'])
        self.assertEqual(0.25, got['poll_interval'])
        # A float given as data, not as YAML text, is refused.
        e = self.assertRaises(claims.ClaimsError, claims.validate,
                              {'pending_state_microversion': 2.11}, 'x')
        self.assertIn('write the microversion as a string', str(e))

    def test_certify_refuses_an_unsupported_tempest(self):
        err = self.useFixture(fixtures.MonkeyPatch('sys.stderr',
                                                   io.StringIO())).new_value
        self.useFixture(fixtures.MockPatchObject(
            cli, '_versions', return_value={'tempest_version': '39.0.0'}))
        self.useFixture(fixtures.MockPatchObject(
            cli.ws, 'load_state', return_value={}))
        self.assertEqual(2, cli.main(['run', '--workspace', self.tmp,
                                      '--mode', 'certify']))
        self.assertIn('--mode certify: Tempest 39.0.0 is outside the '
                      'supported range', err.getvalue())

    def test_version(self):
        out = self.useFixture(fixtures.MonkeyPatch('sys.stdout',
                                                   io.StringIO())).new_value
        self.useFixture(fixtures.MockPatchObject(
            cli, '_versions', return_value={
                'plugin_version': '0.1.0', 'plugin_git_sha': 'abc1234',
                'tempest_version': '41.0.0'}))
        e = self.assertRaises(SystemExit, cli.main, ['--version'])
        self.assertEqual(0, e.code)
        self.assertEqual('pending-conformance 0.1.0 (git abc1234), '
                         'tempest 41.0.0\n', out.getvalue())

    def test_disruptive_hosts_list_or_string(self):
        for value in ('[cn1, cn2]', 'cn1,cn2'):
            got = claims.load(self.write('c.yaml', (
                'disruptive_tests: true\ndisruptive_hosts: %s\n' % value)))
            self.assertEqual(['cn1', 'cn2'], got['disruptive_hosts'])
            self.assertIn(('disruptive_hosts', 'cn1,cn2'),
                          claims.nova_conformance_options(got))
        e = self.assertRaises(claims.ClaimsError, claims.load, self.write(
            'c.yaml', 'disruptive_tests: true\n'))
        self.assertIn('disruptive_tests = True needs disruptive_hosts',
                      str(e))
        e = self.assertRaises(claims.ClaimsError, claims.load, self.write(
            'c.yaml', 'quota_counting: [db]\n'))
        self.assertIn('is not a string or number', str(e))

    def test_profile_services_mapping_or_string(self):
        for value in ('{unknown_only: compute-u, admin_or_owner: compute-a}',
                      '"admin_or_owner:compute-a,unknown_only:compute-u"'):
            got = claims.load(self.write('c.yaml', (
                'host_status_profile_services: %s\n' % value)))
            self.assertEqual({'admin_or_owner': 'compute-a',
                              'unknown_only': 'compute-u'},
                             got['host_status_profile_services'])
            self.assertIn(('host_status_profile_services',
                           'admin_or_owner:compute-a,unknown_only:compute-u'),
                          claims.nova_conformance_options(got))
        self.assertEqual({}, claims.load(None)['host_status_profile_services'])
        self.assertNotIn('host_status_profile_services', dict(
            claims.nova_conformance_options(claims.load(None))))

    def test_claims_from_tempest_conf_strings(self):
        got = claims.from_conf([('pending_state_enabled', 'True'),
                                ('disruptive_hosts', 'cn1, cn2'),
                                ('cell0_rebuild_microversion', ''),
                                ('not_ours', 'x')], 'tempest.conf')
        self.assertIs(True, got['pending_state_enabled'])
        self.assertEqual(['cn1', 'cn2'], got['disruptive_hosts'])
        self.assertIsNone(got['cell0_rebuild_microversion'])
        self.assertEqual('admin_only', got['host_status_policy_profile'])
        self.assertEqual({}, got['host_status_profile_services'])
        got = claims.from_conf([('host_status_profile_services',
                                 'unknown_only:compute-u')], 'tempest.conf')
        self.assertEqual({'unknown_only': 'compute-u'},
                         got['host_status_profile_services'])
        e = self.assertRaises(ValueError, claims.from_conf,
                              [('disruptive_tests', 'maybe')], 'x.conf')
        self.assertIn("x.conf: [nova_conformance] disruptive_tests = "
                      "'maybe' is not a boolean", str(e))

    def test_main_exits_2_on_bad_claims(self):
        err = self.useFixture(fixtures.MonkeyPatch('sys.stderr',
                                                   io.StringIO())).new_value
        self.assertEqual(2, cli.main([
            'init', '--os-cloud', 'x', '--workspace', self.tmp,
            '--claims', self.write('bad.yaml', 'nope: 1\n')]))
        self.assertIn("pending-conformance init: ", err.getvalue())
        self.assertIn("unknown claim 'nope'", err.getvalue())

    def test_run_with_bad_weights_exits_2_first(self):
        # Before the workspace is even read.
        err = self.useFixture(fixtures.MonkeyPatch('sys.stderr',
                                                   io.StringIO())).new_value
        bad = self.write('w.yaml', '- a list\n')
        self.assertEqual(2, cli.main(['run', '--workspace', self.tmp,
                                      '--weights', bad]))
        self.assertIn('class weights %s: ' % bad, err.getvalue())
        self.assertNotIn('is not a workspace', err.getvalue())

    def test_run_without_init_exits_2(self):
        err = self.useFixture(fixtures.MonkeyPatch('sys.stderr',
                                                   io.StringIO())).new_value
        self.assertEqual(2, cli.main(['run', '--workspace', self.tmp]))
        self.assertIn('is not a workspace of pending-conformance init',
                      err.getvalue())


class TestWorkspace(fakes.FileTestCase):

    def conf(self, **kwargs):
        got = claims.validate({'pending_state_enabled': True,
                               'pending_state_microversion': '2.105'}, 'x')
        conf = workspace.tempest_conf(self.tmp, FOUND, got, 'pcf00000000',
                                      **kwargs)
        parser = configparser.RawConfigParser()
        parser.read_string(workspace.render(conf))
        return parser

    def test_tempest_conf_from_discovery_and_claims(self):
        auth = workspace.credentials(
            {'username': 'admin', 'password': 's3cret!', 'project_name':
             'admin', 'user_domain_name': 'Default'}, 'password')
        conf = self.conf(admin_auth=auth, cacert='/etc/ca.pem')
        self.assertEqual('2.106', conf.get('compute', 'max_microversion'))
        self.assertEqual('https://keystone.example:5000/v3',
                         conf.get('identity', 'uri_v3'))
        self.assertEqual('/etc/ca.pem',
                         conf.get('identity', 'ca_certificates_file'))
        self.assertEqual('2', conf.get('compute', 'min_compute_nodes'))
        self.assertEqual('pcf00000000',
                         conf.get('DEFAULT', 'resource_name_prefix'))
        self.assertEqual('true', conf.get('nova_conformance',
                                          'pending_state_enabled'))
        self.assertEqual('admin_only', conf.get(
            'nova_conformance', 'host_status_policy_profile'))
        self.assertFalse(conf.has_option('nova_conformance',
                                         'cell0_rebuild_microversion'))
        self.assertEqual('s3cret!', conf.get('auth', 'admin_password'))
        self.assertEqual('true', conf.get('service_available', 'cinder'))
        self.assertEqual('false', conf.get('service_available', 'swift'))
        self.assertEqual('3.71', conf.get('volume', 'max_microversion'))

    def test_overrides_merge_over_discovery(self):
        conf = workspace.apply_overrides(self.conf(), self.write(
            'o.conf', '[compute]\nbuild_timeout = 120\nmax_microversion = '
            '2.105\n[compute-feature-enabled]\nsnapshot = false\n'))
        self.assertEqual('120', conf.get('compute', 'build_timeout'))
        self.assertEqual('2.105', conf.get('compute', 'max_microversion'))
        self.assertEqual('false', conf.get('compute-feature-enabled',
                                           'snapshot'))
        self.assertEqual('f1', conf.get('compute', 'flavor_ref'))
        conf = workspace.apply_overrides(self.conf(), self.write(
            'o.conf', '[DEFAULT]\ndebug = true\n[compute]\n'
            'build_timeout = 60\n'))
        self.assertEqual('true', conf.get('DEFAULT', 'debug'))
        compute = workspace.render(conf).split('[compute]')[1].split(
            '\n[')[0]
        self.assertNotIn('debug', compute,
                         '[DEFAULT] of the overrides leaked into [compute]')
        for text, message in (
                ('[nova_conformance]\ndisruptive_tests = true\n',
                 'claims come only from the claims file'),
                ('[auth]\nadmin_password = x\n',
                 'credentials come only from clouds.yaml'),
                ('[auth]\ntest_accounts_file = /x\n',
                 'credentials come only from clouds.yaml'),
                ('no section\n', 'are not a tempest.conf fragment'),
                ('[DEFAULT]\nresource_name_prefix = mine\n',
                 'set [DEFAULT] resource_name_prefix, which init owns'),
                ('[oslo_concurrency]\nlock_path = /tmp\n',
                 'which init owns')):
            e = self.assertRaises(workspace.WorkspaceError,
                                  workspace.apply_overrides, self.conf(),
                                  self.write('o.conf', text))
            self.assertIn(message, str(e))

    def test_init_refuses_bad_overrides_before_connecting(self):
        err = self.useFixture(fixtures.MonkeyPatch('sys.stderr',
                                                   io.StringIO())).new_value
        connect = self.useFixture(fixtures.MockPatchObject(
            cli, '_connect')).mock
        self.assertEqual(2, cli.main([
            'init', '--os-cloud', 'x', '--workspace', self.tmp,
            '--overrides', self.write('o.conf', '[nova_conformance]\n')]))
        self.assertIn('claims come only from the claims file',
                      err.getvalue())
        connect.assert_not_called()

    DEVSTACK_CONF = (
        '[DEFAULT]\nlog_dir = /opt/stack/logs\nresource_name_prefix = '
        'tempest\n'
        '[auth]\nadmin_username = admin\nadmin_password = s3cret-pw\n'
        'admin_project_name = admin\nadmin_domain_name = Default\n'
        '[identity]\nuri_v3 = http://10.0.0.5/identity/v3\n'
        'region = RegionOne\n'
        '[compute]\nimage_ref = img-1\nflavor_ref = 42\n'
        'build_timeout = 196\n'
        '[compute-feature-enabled]\nresize = True\n'
        '[nova_conformance]\nhost_status_policy_profile = admin_or_owner\n'
        'compute_command_timeout = 180\nno_such_option = 1\n')

    def test_from_source_keeps_the_cloud_and_owns_prefix_and_claims(self):
        path = self.write('tempest/etc/tempest.conf',
                          self.DEVSTACK_CONF.replace(
                              'region = RegionOne\n',
                              'region = RegionOne\n'
                              'ca_certificates_file = etc/ca.pem\n'))
        source = workspace.read_conf(path)
        claims_ = claims.from_conf([('cell0_rebuild_microversion', '2.106')],
                                   'x')
        conf = workspace.from_source(source, path, '/ws', claims_, 'pcfabc',
                                     accounts='/ws/etc/accounts.yaml')
        # Relative paths are Tempest's directory's; the accounts the copy.
        self.assertEqual(os.path.join(self.tmp, 'tempest', 'etc', 'ca.pem'),
                         conf.get('identity', 'ca_certificates_file'))
        self.assertEqual('/ws/etc/accounts.yaml',
                         conf.get('auth', 'test_accounts_file'))
        # The deployment's values stay...
        self.assertEqual('196', conf.get('compute', 'build_timeout'))
        self.assertEqual('True', conf.get('compute-feature-enabled',
                                          'resize'))
        self.assertEqual('s3cret-pw', conf.get('auth', 'admin_password'))
        compute = workspace.render(conf).split('[compute]')[1].split(
            '\n[')[0]
        self.assertNotIn('log_dir', compute,
                         '[DEFAULT] copied into a section')
        # ...but the runner's options and the claims are the runner's.
        self.assertEqual('pcfabc', conf.get('DEFAULT',
                                            'resource_name_prefix'))
        self.assertEqual('/ws/logs', conf.get('DEFAULT', 'log_dir'))
        self.assertEqual('/ws/lock', conf.get('oslo_concurrency',
                                              'lock_path'))
        self.assertEqual('2.106', conf.get('nova_conformance',
                                           'cell0_rebuild_microversion'))
        self.assertEqual('admin_only', conf.get(
            'nova_conformance', 'host_status_policy_profile'))
        self.assertFalse(conf.has_option('nova_conformance',
                                         'no_such_option'))

    def test_init_from_tempest_conf_claims_and_refusals(self):
        path = self.write('t.conf', self.DEVSTACK_CONF)
        args = cli.parser().parse_args(
            ['init', '--from-tempest-conf', path, '--workspace', self.tmp])
        _, claims_ = cli._from_tempest_conf(path, args)
        # Without --claims: the file's own [nova_conformance].
        self.assertEqual('admin_or_owner',
                         claims_['host_status_policy_profile'])
        self.assertEqual(180, claims_['compute_command_timeout'])
        err = self.useFixture(fixtures.MonkeyPatch('sys.stderr',
                                                   io.StringIO())).new_value
        connect = self.useFixture(fixtures.MockPatchObject(
            cli, '_connect')).mock
        for argv, message in (
                (['--os-cloud', 'x', '--from-tempest-conf', path],
                 'not both'),
                ([], 'init needs --os-cloud'),
                (['--from-tempest-conf', path, '--create'],
                 'no --accounts, no --create'),
                (['--from-tempest-conf', self.write('bad.conf', 'x = 1\n')],
                 'is not a tempest.conf')):
            self.assertEqual(2, cli.main(
                ['init', '--workspace', self.tmp] + argv))
            self.assertIn(message, err.getvalue())
        connect.assert_not_called()
        conf = workspace.read_conf(self.write('n.conf', '[auth]\n'))
        e = self.assertRaises(cli.UsageError, cli._connect_conf, conf,
                              'n.conf')
        self.assertIn('n.conf lacks [identity] uri_v3, [auth] '
                      'admin_username', str(e))
        # As Tempest reads it: [DEFAULT] inherited by no section, the
        # user's domain admin_user_domain_name's, the compute's region.
        connect = self.useFixture(fixtures.MockPatch(
            'openstack.connect')).mock
        cli._connect_conf(workspace.read_conf(self.write(
            'd.conf', self.DEVSTACK_CONF.replace(
                'admin_domain_name = Default\n',
                'admin_domain_name = D1\nadmin_user_domain_name = U1\n')
            .replace('[compute]\n', '[compute]\nregion = R2\n')
            .replace('[DEFAULT]\n', '[DEFAULT]\nregion = R9\n'))), 'd.conf')
        kwargs = connect.call_args[1]
        self.assertEqual(('U1', 'D1', 'R2', 'public'), (
            kwargs['user_domain_name'], kwargs['project_domain_name'],
            kwargs['region_name'], kwargs['interface']))
        e = self.assertRaises(cli.UsageError, cli._connect_conf,
                              workspace.read_conf(self.write(
                                  's.conf', self.DEVSTACK_CONF.replace(
                                      '[auth]\n',
                                      '[auth]\nadmin_system = all\n'))),
                              's.conf')
        self.assertIn('needs a project-scoped admin', str(e))

    def test_accounts_replace_dynamic_credentials(self):
        conf = self.conf(accounts='/x/accounts.yaml')
        self.assertEqual('false', conf.get('auth', 'use_dynamic_credentials'))
        self.assertEqual('/x/accounts.yaml',
                         conf.get('auth', 'test_accounts_file'))
        self.assertFalse(conf.has_option('auth', 'admin_password'))

    def test_accounts_file_fits_the_personas(self):
        good = ('- {username: a1, password: p, project_name: A, '
                'roles: [member]}\n'
                '- {username: r1, password: p, project_name: A, '
                'roles: [reader]}\n'
                '- {username: b1, password: p, project_name: B, '
                'roles: [member]}\n')
        self.assertEqual([], workspace.check_accounts(
            self.write('a.yaml', good)))
        self.assertEqual([], workspace.check_accounts(self.write(
            'a.yaml', good + '- {username: admin, password: p, '
            'project_name: admin, types: [admin]}\n')))
        for text, message in (
                ('{}', 'expected a list of accounts'),
                ('- {username: a1, project_name: A}\n', 'lacks password'),
                (good.replace('[reader]', '[member]'),
                 'no project has a member account and another, reader'),
                ('- {username: a1, password: p, project_name: A, '
                 'roles: [member, reader]}\n'
                 '- {username: b1, password: p, project_name: B, '
                 'roles: [member]}\n',
                 'no project has a member account and another, reader'),
                (good.replace('project_name: B', 'project_name: A'),
                 'no non-admin account in a project other than the owner'),
                # Tempest would read the roles a, d, m, i, n.
                (good + '- {username: admin, password: p, '
                 'project_name: admin, roles: admin}\n',
                 "entry 4: roles must be a list of names, e.g. roles: "
                 "[member], not 'admin'"),
                (good.replace('roles: [reader]', 'types: reader'),
                 "entry 2: types must be a list of names"),
                # The same account twice is one account: no reader left.
                (good.replace('username: r1', 'username: a1').replace(
                    '[reader]', '[member, reader]'),
                 'no project has a member account and another, reader'),
                ('{[', 'is not YAML')):
            self.assertIn(message, '; '.join(workspace.check_accounts(
                self.write('a.yaml', text))))
        self.assertIn('cannot read it', workspace.check_accounts(
            os.path.join(self.tmp, 'none.yaml'))[0])

    def test_accounts_ordered_for_tempest(self):
        # Two workers' sets: the other projects' accounts first, so that
        # Tempest's alt (the first free non-admin account) never takes a
        # member or reader of an owner project; admin last.
        entries = [
            {'username': u, 'password': 'p', 'project_name': p,
             'roles': r} for u, p, r in (
                ('admin', 'admin', ['admin']), ('a-m', 'A', ['member']),
                ('a-r', 'A', ['reader']), ('b-m', 'B', ['member']),
                ('c-m', 'C', ['member']), ('c-r', 'C', ['reader']),
                ('d-m', 'D', ['member']))]
        self.assertEqual(['b-m', 'd-m', 'a-m', 'a-r', 'c-m', 'c-r', 'admin'],
                         [e['username'] for e in
                          workspace.ordered_accounts(entries)])

    def test_persona_sets_bound_the_test_workers(self):
        def entries(*accounts):
            return [{'username': u, 'password': 'p', 'project_name': p,
                     'roles': r} for u, p, r in accounts]
        one = (('a-m', 'A', ['member']), ('a-r', 'A', ['reader']),
               ('b-m', 'B', ['member']))
        two = one + (('c-m', 'C', ['member']), ('c-r', 'C', ['reader']),
                     ('d-m', 'D', ['member']))
        admin = (('admin', 'admin', ['admin']),)
        # Member-only: the persona sets alone.
        self.assertEqual(1, workspace.persona_sets(entries(*one)))
        self.assertEqual(2, workspace.persona_sets(entries(*two)))
        # a second owner project without a second other-project account
        self.assertEqual(1, workspace.persona_sets(entries(*two[:-1])))
        # With admin, each worker's class holds an admin account too
        # (Tempest locks it; a class finding none free fails): one admin
        # account, one worker, however many persona sets.
        self.assertEqual(1, workspace.persona_sets(entries(*one + admin)))
        self.assertEqual(1, workspace.persona_sets(entries(*two + admin)))
        # The same account twice is one lock, even with a domain added.
        self.assertEqual(1, workspace.persona_sets(
            entries(*two + admin + admin)))
        same = entries(*two + admin + admin)
        same[-1]['user_domain_name'] = 'Default'
        same[-1]['types'] = ['admin']
        self.assertEqual(1, workspace.persona_sets(same))
        admins = admin + (('admin2', 'admin', ['admin']),)
        self.assertEqual(2, workspace.persona_sets(entries(*two + admins)))
        # An account listed once as a member and once as admin is an admin
        # account (Tempest unions its roles): no other-project account
        # left for a second worker.
        self.assertEqual(1, workspace.persona_sets(
            entries(*two + admins + (('d-m', 'D', ['admin']),))))
        # An other-project account listed twice is one lock: one worker.
        self.assertEqual(1, workspace.persona_sets(
            entries(*two[:-1] + (one[-1],) + admins)))
        self.assertEqual(1, workspace.persona_sets(entries(*one + admins)))

    def test_lock_fields_are_tempests(self):
        from tempest.lib.common import preprov_creds
        self.assertEqual(
            set(preprov_creds.PreProvisionedCredentialProvider
                .HASH_CRED_FIELDS), set(workspace.LOCK_FIELDS))

    def test_application_credentials_need_accounts(self):
        e = self.assertRaises(workspace.WorkspaceError,
                              workspace.credentials,
                              {'application_credential_id': 'x'},
                              'v3applicationcredential')
        self.assertIn('--accounts', str(e))

    def test_redact(self):
        text = ('[auth]\nadmin_password = s3cret!\nadmin_username = admin\n'
                '[x]\nfoo_secret=abc\n# password = comment\n')
        out = workspace.redact(text)
        self.assertNotIn('s3cret!', out)
        self.assertNotIn('abc', out)
        self.assertIn('admin_username = admin', out)
        self.assertIn('# password = comment', out)

    def test_notification_url_reaches_no_artifact(self):
        url = 'rabbit://nova:Bu5-pa55w0rd@bus.example:5672/'
        got = claims.validate({'pending_state_enabled': True,
                               'pending_state_microversion': '2.105',
                               'notification_transport_url': url}, 'x')
        conf = workspace.tempest_conf(self.tmp, FOUND, got, 'pcf00000000')
        text = workspace.render(conf)
        self.assertIn(url, text)   # Tempest needs it in its own conf...
        path = self.write('etc/tempest.conf', text)
        artifacts_text = [workspace.redact(text), json.dumps(
            workspace.redact_claims(got))]
        conf_claims, admin = report.context_from_tempest_conf(path)
        result = report.report(test_report._records([]), conf_claims,
                               admin)
        artifacts_text.append(json.dumps(result))
        artifacts_text.append(report.render(
            result['requirements'], result['totals'], result['verdict']))
        artifacts_text.append(artifacts.html_page(result, []))
        for artifact in artifacts_text:
            self.assertNotIn('Bu5-pa55w0rd', artifact)
            self.assertNotIn('bus.example', artifact)
        # ...and a copy of anything that repeats it is scrubbed.
        log = self.write('out/tempest.log', 'connecting to %s\n' % url)
        artifacts.scrub(os.path.dirname(log),
                        cli._secrets(path, None))
        with open(log) as f:
            self.assertNotIn('Bu5-pa55w0rd', f.read())

    def test_state_round_trip_and_missing(self):
        workspace.save_state(self.tmp, {'prefix': 'pcf1'})
        self.assertEqual({'prefix': 'pcf1'}, workspace.load_state(self.tmp))
        self.assertRaises(workspace.WorkspaceError, workspace.load_state,
                          os.path.join(self.tmp, 'none'))


class TestDiscovery(testtools.TestCase):

    def test_claimed_profile_services_need_their_endpoints(self):
        def service(stype, url):
            return {'type': stype, 'endpoints': [
                {'interface': 'public', 'region_id': 'R1', 'url': url}]}
        catalog = [service('compute', 'http://a/v2.1'),
                   service('compute-unknown_only', 'http://b/v2.1')]
        self.assertEqual([], discovery.missing_compute_services(
            catalog, 'R1', {'unknown_only': 'compute-unknown_only'}))
        self.assertEqual(
            ['compute-unknown_only (profile unknown_only)'],
            discovery.missing_compute_services(
                catalog, 'R2', {'unknown_only': 'compute-unknown_only'}))
        self.assertEqual(
            ['compute-a (profile admin_or_owner)'],
            discovery.missing_compute_services(catalog, None, {
                'admin_or_owner': 'compute-a',
                'unknown_only': 'compute-unknown_only'}))
        self.assertEqual([], discovery.missing_compute_services(
            catalog, None, {}))
        self.assertEqual(
            ['compute-u (mode unified_limits)'],
            discovery.missing_compute_services(
                catalog, None, {'unified_limits': 'compute-u'}, 'mode'))

    def test_cloud_identity_is_the_identity_service_id(self):
        catalog = [{'type': 'compute', 'id': 'c'},
                   {'type': 'identity', 'id': 'k3y'}]
        self.assertEqual('k3y', discovery.cloud_identity(catalog, 'u'))
        other = discovery.cloud_identity([], 'https://k:5000/v3')
        self.assertTrue(other.startswith('sha256:'))
        self.assertNotIn('k:5000', other)

    def test_version_ranges(self):
        self.assertEqual(('2.1', '2.106'), discovery._range(
            {'version': {'id': 'v2.1', 'min_version': '2.1',
                         'version': '2.106'}}, 'v2.1'))
        self.assertEqual(('1.0', '1.39'), discovery._range(
            {'versions': [{'id': 'v1.0', 'min_version': '1.0',
                           'max_version': '1.39'}]}, 'v1'))
        self.assertEqual('http://h:8776/', discovery._version_root(
            'http://h:8776/v3/abc123'))


class TestArtifacts(fakes.FileTestCase):

    def result(self):
        records = test_report._records([
            (test_report._test('test_up_visibility', test_report.UP),
             'fail', 'x-openstack-request-id: %s\nAssertionError: <bad & '
             'wrong>' % test_report.REQ_ID),
            (test_report._test('t', test_report.HS03), 'skip', 'set x'),
            ('setUpClass (a.B)', 'fail', 'boom')])
        return records, report.report(records, report.claim_defaults(),
                                      True)

    def test_junit_parses_and_counts(self):
        records, _ = self.result()
        root = ElementTree.fromstring(artifacts.junit(records))
        suite = root.find('testsuite')
        self.assertEqual('3', suite.get('tests'))
        self.assertEqual('2', suite.get('failures'))
        self.assertEqual('1', suite.get('skipped'))
        self.assertIn(test_report.REQ_ID, suite.find(
            'testcase/failure').text)

    def test_html_shows_verdict_and_totals_escaped(self):
        records, result = self.result()
        page = artifacts.html_page(result, records)
        self.assertIn('id="verdict"', page)
        self.assertIn('VERDICT: FAIL', page)
        self.assertIn('id="totals"', page)
        self.assertIn('&lt;bad &amp; wrong&gt;', page)
        self.assertNotIn('<bad', page)

    def test_html_filters_rows_by_outcome_without_script(self):
        records, result = self.result()
        page = artifacts.html_page(result, records)
        self.assertNotIn('<script', page)
        # One button per outcome present, "all" checked, and a CSS rule
        # hiding the other rows of its table.
        self.assertIn('id="requirements-all" checked', page)
        self.assertIn('<label for="requirements-fail">fail</label>', page)
        self.assertIn('<label for="requirements-not-applicable">'
                      'not applicable</label>', page)
        self.assertIn('#requirements-fail:checked ~ table tr.row:not(.fail) '
                      '{ display: none; }', page)
        self.assertIn('<label for="tests-skip">skip</label>', page)
        self.assertNotIn('for="tests-success"', page)
        self.assertIn('<tr class="row fail"><td>HS-01</td>', page)
        self.assertIn(test_report.REQ_ID, page)

    def test_scrub_removes_secrets_from_every_file(self):
        self.write('a.log', 'admin password s3cret!! here')
        os.mkdir(os.path.join(self.tmp, 'sub'))
        self.write('sub/b.txt', 'nothing')
        touched = artifacts.scrub(self.tmp, ['s3cret!!', 'admin', ''])
        self.assertEqual([os.path.join(self.tmp, 'a.log')], touched)
        with open(os.path.join(self.tmp, 'a.log')) as f:
            self.assertEqual('admin password *** here', f.read())


class TestMerge(testtools.TestCase):

    def leg(self, name, outcome, cloud='c1', passed=True):
        return {'header': {'cloud_id': cloud, 'leg': name, 'claims': {
            'host_status_policy_profile': name}},
            'verdict': {'passed': passed, 'reasons': [] if passed else
                        ['x']},
            'requirements': [
                {'id': 'HS-14', 'level': 'MUST', 'outcome': outcome,
                 'detail': ''},
                {'id': 'HS-15', 'level': 'MUST', 'outcome': {
                    'pass': 'not applicable', 'not applicable': 'pass'}
                    .get(outcome, outcome), 'detail': ''}]}

    def test_each_row_is_decided_by_the_leg_that_verified_it(self):
        result = cli.merge([self.leg('admin_only', 'pass'),
                            self.leg('admin_or_owner', 'not applicable')])
        rows = {r['id']: r for r in result['requirements']}
        self.assertEqual(('pass', 'admin_only'),
                         (rows['HS-14']['outcome'], rows['HS-14']['leg']))
        self.assertEqual(('pass', 'admin_or_owner'),
                         (rows['HS-15']['outcome'], rows['HS-15']['leg']))
        self.assertEqual(0, result['exit_code'])
        self.assertEqual(2, len(result['header']['legs']))
        # The text report names the deciding leg of every row.
        text = report.render(result['requirements'], result['totals'])
        self.assertIn('HS-15    MUST   pass             admin_or_owner ',
                      text)
        self.assertIn('HS-14    MUST   pass             admin_only     ',
                      text)
        self.assertIn('LEG', text.splitlines()[0])

    def test_certify_fails_a_must_no_leg_verified_and_a_leak(self):
        legs = [self.leg('admin_only', 'pass'),
                self.leg('admin_or_owner', 'pass')]
        legs[1]['requirements'][1]['outcome'] = 'not run'
        self.assertEqual(0, cli.merge(legs)['exit_code'])
        result = cli.merge(legs, 'certify')
        self.assertEqual(1, result['exit_code'])
        self.assertIn('1 applicable MUST requirement(s) not verified by any '
                      'leg: HS-15', result['verdict']['reasons'])
        legs = [self.leg('admin_only', 'pass'),
                self.leg('admin_or_owner', 'not applicable')]
        self.assertEqual(0, cli.merge(legs, 'certify')['exit_code'])
        legs[1]['header']['leaks'] = ['server x']
        self.assertEqual(['leg admin_or_owner left 1 resource(s) behind: '
                          'server x'],
                         cli.merge(legs, 'certify')['verdict']['reasons'])

    def test_a_failure_in_any_leg_fails(self):
        result = cli.merge([self.leg('admin_only', 'pass'),
                            self.leg('admin_or_owner', 'fail',
                                     passed=False)])
        self.assertEqual(1, result['exit_code'])

    def test_reports_of_two_clouds_do_not_merge(self):
        self.assertRaises(cli.UsageError, cli.merge, [
            self.leg('a', 'pass'), self.leg('b', 'pass', cloud='c2')])

    def test_merge_main_writes_json(self):
        tmp = self.useFixture(fixtures.TempDir()).path
        self.useFixture(fixtures.MonkeyPatch('sys.stdout', io.StringIO()))
        paths = []
        for i, leg in enumerate((self.leg('admin_only', 'pass'),
                                 self.leg('admin_or_owner', 'pass'))):
            paths.append(os.path.join(tmp, '%d.json' % i))
            with open(paths[-1], 'w') as f:
                json.dump(leg, f)
        out = os.path.join(tmp, 'merged.json')
        self.assertEqual(0, cli.main(['merge', '--output', out] + paths))
        with open(out) as f:
            self.assertEqual('merged', json.load(f)['verdict']['mode'])
