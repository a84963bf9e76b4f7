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
"""Certification scopes, reruns, diffs, mixed reports, bundles, verify.

The bundles are signed with a real OpenSSH key (``ssh-keygen``) and each
bad bundle of the table is made as someone would make it: a file changed
after signing, a report edited and signed again, another key, no
signature, a development build, another suite, a secret left in clear.
"""

import io
import json
import os
import shutil
import subprocess
import tarfile

import fixtures
import testtools

from pending_tempest_plugin.conformance import catalogue
from pending_tempest_plugin.conformance import suite
from pending_tempest_plugin.conformance import verdict
from pending_tempest_plugin.runner import artifacts
from pending_tempest_plugin.runner import bundle
from pending_tempest_plugin.runner import cli
from pending_tempest_plugin.runner import report
from pending_tempest_plugin.unit_tests import test_report

CAT = catalogue.load()
RELEASE = {'plugin_version': '1.2.3', 'plugin_git_sha': 'abc1234',
           'tempest_version': '41.0.0'}


def _claims(**over):
    claims = dict(report.claim_defaults(), disruptive_tests=True)
    claims.update(over)
    return claims


def _passing(prefixes, fail=(), also=('PEND-01', 'RB-10')):
    """Records: every test of the verified rows of ``prefixes`` passes.

    And of the rows ``also`` (by default the two a stock cloud decides
    outside host-status: PENDING off, no rebuild below 2.106); the tests
    of the rows in ``fail`` fail instead.
    """
    failing = {u for r in CAT.requirements if r.id in fail for u in r.tests}
    tests, seen = [], set()
    declared, _ = catalogue.scan_tests()
    names = {t.idempotent_id: t.name for t in declared}
    for req in CAT.requirements:
        if req.id.split('-')[0] not in prefixes and req.id not in also:
            continue
        for uuid in req.tests:
            if uuid in seen:
                continue
            seen.add(uuid)
            tests.append(('%s[id-%s]' % (names[uuid], uuid),
                          'fail' if uuid in failing else 'success',
                          'AssertionError: planted' if uuid in failing
                          else ''))
    return [t if t[2] else t[:2] for t in tests]


def _report(tests, claims=None, mode=verdict.CERTIFY, versions=None,
            origin=None):
    versions = dict(versions or RELEASE)
    versions.setdefault('suite_sha256', suite.digest(suite.installed_sums()))
    return report.report(test_report._records(tests), claims or _claims(),
                         True, mode=mode, versions=versions, origin=origin)


class TestScopes(testtools.TestCase):

    def test_the_shipped_catalogue_has_three_scopes_one_per_spec(self):
        self.assertEqual(['host-status', 'pending-state', 'cell0-rebuild'],
                         [s.name for s in CAT.scopes])
        self.assertEqual('pending-state', CAT.scope_of('PEND-04'))
        self.assertEqual([], catalogue.validate(CAT))

    def test_a_spec_in_no_scope_or_two_is_refused(self):
        first = CAT.scopes[0]
        cat = catalogue.Catalogue(CAT.specs, CAT.requirements, [
            first, first._replace(name='again', claims=('no_such',))])
        problems = catalogue.validate(cat)
        self.assertIn('scope again: spec HS is already in scope host-status',
                      problems)
        self.assertIn('scope again: claims no_such are not '
                      '[nova_conformance] options', problems)
        self.assertIn('spec PEND: in no scope', problems)

    def test_stock_cloud_certifies_host_status_only(self):
        result = _report(_passing(('HS',)))
        self.assertEqual('certified: host-status; not claimed: '
                         'pending-state, cell0-rebuild',
                         result['verdict']['lines'][0])
        self.assertTrue(result['verdict']['lines'][1].startswith(
            'VERDICT: PASS (certify)'))
        status = {s['name']: s['status'] for s in result['scopes']}
        self.assertEqual('certified', status['host-status'])
        self.assertEqual('admin_only', result['scopes'][0]['claims'][0][
            'host_status_policy_profile'])

    def test_a_development_build_cannot_certify(self):
        result = _report(_passing(('HS',)), versions=dict(
            RELEASE, plugin_version='1.2.4.dev7'))
        self.assertEqual(
            'certified (development build, not certifiable): host-status; '
            'not claimed: pending-state, cell0-rebuild',
            result['verdict']['lines'][0])
        self.assertTrue(result['header']['development_build'])

    def test_a_failed_row_fails_its_scope_only(self):
        claims = _claims(pending_state_enabled=True,
                         pending_state_microversion='2.105',
                         build_failure_metadata='fail_build')
        result = _report(_passing(('HS', 'PEND'), fail=('PEND-04',)),
                         claims=claims)
        self.assertEqual('certified: host-status; failed: pending-state; '
                         'not claimed: cell0-rebuild',
                         result['verdict']['lines'][0])
        pend = [s for s in result['scopes'] if s['name'] == 'pending-state']
        self.assertIn('PEND-04', pend[0]['reasons'][0])

    def test_a_leak_certifies_no_scope(self):
        tests = _passing(('HS',))
        versions = dict(RELEASE,
                        suite_sha256=suite.digest(suite.installed_sums()))
        result = report.report(test_report._records(tests), _claims(), True,
                               mode=verdict.CERTIFY, versions=versions,
                               leaks=['server x-1'])
        self.assertTrue(result['verdict']['lines'][0].startswith(
            'certified: none; failed: host-status'))

    def test_explore_mode_never_says_certified(self):
        result = _report(_passing(('HS',)), mode=verdict.EXPLORE)
        self.assertEqual('explored, not certified; verified: host-status; '
                         'not claimed: pending-state, cell0-rebuild',
                         result['verdict']['lines'][0])


class TestRerun(testtools.TestCase):

    def test_a_later_attempt_replaces_tests_and_class_errors(self):
        first = test_report._records([
            ('setUpClass (%s)' % test_report.HS_CLASS, 'fail',
             'Traceback\nBadRequest: no image'),
            (test_report._test('test_x', test_report.HS03), 'fail',
             'AssertionError: x')])
        report_a = {'requirements': [
            {'id': 'HS-01', 'outcome': 'fail', 'tests': [test_report.UP]},
            {'id': 'HS-05', 'outcome': 'not run', 'tests': ['u-5']},
            {'id': 'HS-06', 'outcome': 'pass', 'tests': ['u-6']}]}
        regex, count = verdict.rerun_selection(report_a, first)
        self.assertEqual(4, count)
        for part in ('id-' + test_report.UP, 'id-u-5',
                     'id-' + test_report.HS03, r'\.HostStatusTest\.'):
            self.assertIn(part, regex)
        self.assertNotIn('u-6', regex)
        second = test_report._records([
            (test_report._test('test_x', test_report.HS03), 'success'),
            (test_report._test('test_up', test_report.UP), 'success')])
        records, origin = verdict.combine_attempts([first, second])
        self.assertEqual(['success', 'success'],
                         [r.status for r in records])
        self.assertEqual({test_report.HS03: 2, test_report.UP: 2}, origin)

    def test_a_rerun_that_skips_a_failed_test_clears_nothing(self):
        failed = (test_report._test('test_x', test_report.HS03), 'fail',
                  'AssertionError: x')
        first = test_report._records([
            ('setUpClass (%s)' % test_report.HS_CLASS, 'fail', 'boom'),
            failed])
        second = test_report._records([
            (test_report._test('test_x', test_report.HS03), 'skip', 'no'),
            ('setUpClass (%s)' % test_report.HS_CLASS, 'skip', 'no')])
        records, origin = verdict.combine_attempts([first, second])
        self.assertEqual(['fail', 'fail'], [r.status for r in records[:2]])
        self.assertEqual({test_report.HS03: 1}, origin)

    def test_rows_a_rerun_decided_are_marked_and_named_first(self):
        tests = _passing(('HS',))
        origin = {tests[0][0].split('[id-')[1].rstrip(']'): 2}
        result = _report(tests, origin=origin)
        self.assertIn('(on rerun 2: ', result['verdict']['lines'][0])
        marked = [r['id'] for r in result['requirements']
                  if r.get('attempt') == 2]
        self.assertTrue(marked)


def _header(**over):
    header = {'cloud_id': 'c1', 'catalogue_sha256': 'aaa',
              'plugin_version': '1.2.3', 'leg': 'l1', 'run_id': 'r1'}
    header.update(over)
    return header


def _rep(rows, **header):
    return {'header': _header(**header), 'requirements': rows,
            'verdict': {'passed': True, 'reasons': [], 'lines': []},
            'totals': {}}


class TestMixedAndDiff(testtools.TestCase):

    ROWS = [{'id': 'HS-01', 'outcome': 'pass', 'level': 'MUST', 'tests': []}]

    def test_merge_refuses_another_suite_naming_both(self):
        a, b = _rep(self.ROWS), _rep(self.ROWS, run_id='r2',
                                     plugin_version='1.2.4')
        e = self.assertRaises(cli.UsageError, cli.merge, [a, b],
                              names=['a.json', 'b.json'])
        self.assertIn('plugin version 1.2.3 (a.json) vs 1.2.4 (b.json)',
                      str(e))
        c = _rep(self.ROWS, run_id='r3', catalogue_sha256='bbb')
        e = self.assertRaises(cli.UsageError, cli.merge, [a, c],
                              names=['a.json', 'c.json'])
        self.assertIn('catalogue sha256 aaa (a.json) vs bbb (c.json)', str(e))
        merged = cli.merge([a, b], names=['a', 'b'], allow_mixed=True)
        self.assertIn('plugin version', merged['header']['mixed'])

    def test_merge_refuses_one_run_twice(self):
        a = _rep(self.ROWS)
        e = self.assertRaises(cli.UsageError, cli.merge, [a, a],
                              names=['a.json', 'copy.json'])
        self.assertIn('a.json and copy.json are the same run', str(e))

    def test_diff_lists_rows_scopes_and_header(self):
        a = _rep(self.ROWS + [{'id': 'HS-02', 'outcome': 'pass'}])
        b = _rep([{'id': 'HS-01', 'outcome': 'fail'},
                  {'id': 'HS-03', 'outcome': 'pass'}], run_id='r2',
                 region='R2', started='later')
        lines, rows = cli.diff(a, b)
        self.assertEqual(3, rows)
        self.assertEqual(['changed  HS-01    pass -> fail',
                          'removed  HS-02    (was pass)',
                          'added    HS-03    pass',
                          'header   region: null -> "R2"'], lines)

    def test_diff_command_exit_statuses(self):
        tmp = self.useFixture(fixtures.TempDir()).path
        paths = []
        for name, rep in (('a', _rep(self.ROWS)),
                          ('b', _rep(self.ROWS, run_id='r2')),
                          ('c', _rep(self.ROWS, run_id='r3',
                                     plugin_version='9'))):
            paths.append(os.path.join(tmp, name + '.json'))
            with open(paths[-1], 'w') as f:
                json.dump(rep, f)
        out = self.useFixture(fixtures.StringStream('stdout'))
        self.useFixture(fixtures.MonkeyPatch('sys.stdout', out.stream))
        err = self.useFixture(fixtures.StringStream('stderr'))
        self.useFixture(fixtures.MonkeyPatch('sys.stderr', err.stream))
        self.assertEqual(0, cli.main(['diff', paths[0], paths[1]]))
        self.assertEqual(2, cli.main(['diff', paths[0], paths[2]]))
        self.assertIn('plugin version', err.getDetails()['stderr'].as_text())
        self.assertEqual(0, cli.main(['diff', '--allow-mixed', paths[0],
                                      paths[2]]))


def _keygen(path, comment):
    subprocess.run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C',
                    comment, '-f', path], check=True)
    with open(path + '.pub') as f:
        key = f.read().split()
    return '%s namespaces="%s" %s %s\n' % (
        comment, bundle.NAMESPACE, key[0], key[1])


@testtools.skipUnless(shutil.which('ssh-keygen'), 'needs ssh-keygen')
class TestBundle(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path
        self.key = os.path.join(self.tmp, 'vendor')
        self.allowed = os.path.join(self.tmp, 'allowed_signers')
        with open(self.allowed, 'w') as f:
            f.write(_keygen(self.key, 'certs@vendor.example'))
        self.sums = os.path.join(self.tmp, 'SUITE-SHA256SUMS')
        with open(self.sums, 'w') as f:
            f.write(suite.installed_sums())
        self.product = os.path.join(self.tmp, 'product.yaml')
        with open(self.product, 'w') as f:
            f.write('vendor: Example\nproduct: Example Cloud\n'
                    'version: "1.10"\ncloud: prod-1\nregion: RegionOne\n')
        self.ws = os.path.join(self.tmp, 'ws')
        self.workspace(RELEASE)

    def workspace(self, versions):
        results = os.path.join(self.ws, 'results')
        os.makedirs(results, exist_ok=True)
        with open(os.path.join(self.ws, 'pending-conformance.json'),
                  'w') as f:
            json.dump({'prefix': 'x', 'claims': {}}, f)
        stream = test_report._subunit(_passing(('HS',))).getvalue()
        with open(os.path.join(results, 'results.subunit'), 'wb') as f:
            f.write(stream)
        result = _report(_passing(('HS',)), versions=versions)
        result['header'].update({
            'region': 'RegionOne', 'cloud_id': 'c1',
            'attempts': [{'attempt': 1, 'subunit': 'results.subunit',
                          'command': ['pending-conformance', 'run']}]})
        with open(os.path.join(results, 'report.json'), 'w') as f:
            json.dump(result, f)
        records = test_report._records(_passing(('HS',)))
        for name, text in (
                ('report.txt', report.render(
                    result['requirements'], result['totals'],
                    result['verdict']) + '\n'),
                ('results.xml', artifacts.junit(records)),
                ('results.html', artifacts.html_page(result, records)),
                ('tempest.log', 'x\n')):
            with open(os.path.join(results, name), 'w') as f:
                f.write(text)
        with open(os.path.join(results, 'tempest.conf'), 'w') as f:
            f.write('[auth]\nadmin_username = admin\nadmin_password = ***\n'
                    '[nova_conformance]\ndisruptive_tests = true\n')

    def make(self, **kwargs):
        return bundle.make(self.ws, self.product, self.key, **kwargs)

    def verify(self, path, allowed=None, sums=None):
        return bundle.verify(path, allowed or self.allowed,
                             sums or self.sums)

    def rewrite(self, path, change, sign_key=None, drop=()):
        """A copy of the bundle with files changed (and signed again)."""
        files = bundle._read_bundle(path)
        change(files)
        for name in drop:
            files.pop(name)
        if sign_key:
            manifest = json.loads(files['manifest.json'])
            manifest['files'] = {n: bundle._sha(d) for n, d in files.items()
                                 if n not in bundle.UNSIGNED}
            files['manifest.json'] = json.dumps(manifest).encode()
            files['SHA256SUMS'] = ''.join(
                '%s  %s\n' % (sha, n) for n, sha in sorted(
                    manifest['files'].items())).encode()
            files['manifest.json.sig'] = bundle._sign(
                sign_key, files['manifest.json'])
        out = os.path.join(self.tmp, 'bad-%d.tar.gz' % len(os.listdir(
            self.tmp)))
        with tarfile.open(out, 'w:gz') as tar:
            for name, data in files.items():
                info = tarfile.TarInfo('%s/%s' % (bundle.TOP, name))
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        return out

    def test_bundle_then_verify_passes(self):
        path = self.make()
        lines = self.verify(path)
        self.assertIn('signed by certs@vendor.example', lines[1])
        self.assertIn('certified: host-status', lines[5])
        self.assertIn('  certified scopes: host-status', lines)
        files = bundle._read_bundle(path)
        for name in ('results/report.json', 'results/results.subunit',
                     'results/results.xml', 'results/results.html',
                     'results/tempest.conf', 'results/tempest.log',
                     'claims.yaml', bundle.CATALOGUE, bundle.DECLARED,
                     bundle.SUITE_SUMS, 'command.txt', 'product.yaml',
                     'manifest.json', 'manifest.json.sig', 'SHA256SUMS'):
            self.assertIn(name, files)
        manifest = json.loads(files['manifest.json'])
        self.assertEqual('1.10', manifest['product']['version'])
        self.assertEqual(suite.digest(suite.installed_sums()),
                         manifest['suite']['sha256'])
        self.assertEqual('certified', manifest['scopes'][0]['status'])

    def test_the_table_of_bad_bundles(self):
        good = self.make()
        other = os.path.join(self.tmp, 'other')
        _keygen(other, 'someone@else.example')
        foreign = os.path.join(self.tmp, 'FOREIGN-SUMS')
        with open(foreign, 'w') as f:
            f.write(suite.installed_sums() + 'x  extra.py\n')

        def tamper(files):
            files['results/tempest.log'] += b'edited\n'

        def edit_report(files):
            rep = json.loads(files['results/report.json'])
            rep['requirements'][0]['outcome'] = 'fail'
            files['results/report.json'] = json.dumps(rep).encode()

        def claims(files):
            rep = json.loads(files['results/report.json'])
            rep['header']['claims']['pending_state_enabled'] = True
            files['results/report.json'] = json.dumps(rep).encode()
            files['claims.yaml'] = bundle.yaml.safe_dump(
                rep['header']['claims']).encode()

        def admin(files):
            rep = json.loads(files['results/report.json'])
            rep['header']['admin'] = False
            files['results/report.json'] = json.dumps(rep).encode()

        def manifest_scope(files):
            manifest = json.loads(files['manifest.json'])
            manifest['scopes'][1]['status'] = 'certified'
            files['manifest.json'] = json.dumps(manifest).encode()

        def html(files):
            files['results/results.html'] += b'<p>PASS</p>'

        def leak(files):
            files['results/tempest.conf'] = (
                b'[auth]\nadmin_password = hunter22secret\n')
        table = [
            ('tampered file', self.rewrite(good, tamper), {},
             'results/tempest.log: sha256 '),
            ('edited report', self.rewrite(good, edit_report, self.key), {},
             'report.json: requirement HS-01 is not what the bundle'),
            ('wrong key', self.rewrite(good, lambda f: None, other), {},
             'manifest.json.sig: made by no key of'),
            ('unsigned', self.rewrite(good, lambda f: None,
                                      drop=['manifest.json.sig']), {},
             'manifest.json.sig: missing: the bundle is unsigned'),
            ('foreign suite hash', good, {'sums': foreign},
             "not the release's suite"),
            ('claims edited', self.rewrite(good, claims, self.key), {},
             'report.json: its claims are not those of '
             'results/tempest.conf'),
            ('admin edited', self.rewrite(good, admin, self.key), {},
             'report.json: admin False, but results/tempest.conf gives '
             'True'),
            ('manifest says more', self.rewrite(good, manifest_scope,
                                                self.key), {},
             "manifest.json: scopes is"),
            ('a rendering edited', self.rewrite(good, html, self.key), {},
             'results/results.html: not the rendering'),
            ('unredacted secret', self.rewrite(good, leak, self.key), {},
             'results/tempest.conf:2: admin_password is not redacted'),
        ]
        for name, path, kwargs, message in table:
            e = self.assertRaises(bundle.BundleError, self.verify, path,
                                  **kwargs)
            self.assertIn(message, str(e), name)

    def test_another_principal_is_refused(self):
        e = self.assertRaises(bundle.BundleError, bundle.verify, self.make(),
                              self.allowed, self.sums,
                              principal='certs@rival.example')
        self.assertIn('made by certs@vendor.example, not by --principal '
                      'certs@rival.example', str(e))

    def test_a_development_build_is_refused_by_bundle_and_verify(self):
        good = self.make()
        self.workspace(dict(RELEASE, plugin_version='1.2.4.dev3'))
        e = self.assertRaises(bundle.BundleError, self.make)
        self.assertIn('plugin_version 1.2.4.dev3 is a development build',
                      str(e))

        def dev(files):
            rep = json.loads(files['results/report.json'])
            rep['header']['plugin_version'] = '1.2.4.dev3'
            files['results/report.json'] = json.dumps(rep).encode()
        e = self.assertRaises(bundle.BundleError, self.verify,
                              self.rewrite(good, dev, self.key))
        self.assertIn('plugin_version 1.2.4.dev3 is a development build',
                      str(e))

    def test_a_bad_product_file_is_refused(self):
        with open(self.product, 'w') as f:
            f.write('vendor: Example\nproduct: P\nversion: 1.10\n'
                    'cloud: c\nregion: RegionOne\ncolour: blue\n')
        e = self.assertRaises(bundle.BundleError, self.make)
        self.assertIn('unknown key(s) colour', str(e))
        with open(self.product, 'w') as f:
            f.write('vendor: Example\nproduct: P\nversion: 1.10\n'
                    'cloud: c\nregion: RegionOne\n')
        e = self.assertRaises(bundle.BundleError, self.make)
        self.assertIn('version must be non-empty text', str(e))
