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
"""The report and its verdict, on synthetic subunit streams.

Each stream is what a real run writes in that situation: a claim that lies
about the cloud (its test fails), a regex that matches nothing (an empty
stream), every test skipped, a failed or skipped ``setUpClass``, a skipped
MUST in certify mode, a member-only run, a leak.
"""

import io
import json
import os

import fixtures
import subunit
import testtools

from pending_tempest_plugin.conformance import catalogue
from pending_tempest_plugin.conformance import verdict
from pending_tempest_plugin.runner import report
from pending_tempest_plugin.unit_tests import fakes

MOD = 'pending_tempest_plugin.tests.api.compute.'
HS_CLASS = MOD + 'test_host_status.HostStatusTest'
HS10 = 'a97a02bf-9f49-4f0c-a32b-3f4cfd175b76'
HS03 = '8b938570-a9cc-4900-8182-6fc371dbab04'
PEND16 = '377b1a82-62a9-4ae4-a3d7-810bdcf656be'
UP = '3834ed88-cfd6-4a9b-992d-f7c62d5055e0'   # HS-01, HS-02, HS-14, HS-15
HS16_MEMBER = '0bc24f83-aaec-4373-bef1-a57aa0de5a4d'
REQ_ID = 'req-0f6a3c1e-5b7d-4e2a-9c8b-1d2e3f4a5b6c'
CLAIMS = report.claim_defaults()


def _subunit(tests):
    """A subunit v2 stream of (test id, status[, attachment text])."""
    out = io.BytesIO()
    stream = subunit.StreamResultToBytes(out)
    for test in tests:
        test_id, status = test[:2]
        stream.status(test_id=test_id, test_status='inprogress')
        if len(test) > 2:
            name = 'reason' if status == 'skip' else 'traceback'
            stream.status(test_id=test_id, file_name=name,
                          file_bytes=test[2].encode(), eof=True,
                          mime_type='text/plain; charset=utf8')
        stream.status(test_id=test_id, test_status=status)
    return io.BytesIO(out.getvalue())


def _records(tests):
    return verdict.records_from_subunit(_subunit(tests))


def _test(name, uuid, extra=''):
    return '%s.%s[id-%s%s]' % (HS_CLASS, name, uuid, extra)


class ReportTestCase(testtools.TestCase):

    def evaluate(self, tests, claims=None, mode=verdict.EXPLORE, admin=True,
                 leaks=()):
        result = report.report(_records(tests), claims or CLAIMS, admin,
                               mode=mode, leaks=leaks)
        result['by_id'] = {row['id']: row for row in result['requirements']}
        return result


class TestRecords(ReportTestCase):

    def test_records_carry_message_and_request_ids(self):
        records = _records([
            (_test('test_up_visibility', UP), 'fail',
             'Traceback...\nResponse: x-openstack-request-id: %s\n'
             'AssertionError: over-permission for persona owner_member'
             % REQ_ID),
            (_test('test_no_host_status_below_2_16', HS03), 'success'),
        ])
        self.assertEqual(['fail', 'success'], [r.status for r in records])
        self.assertEqual('AssertionError: over-permission for persona '
                         'owner_member', records[0].message)
        self.assertEqual((REQ_ID,), records[0].request_ids)

    def test_level_is_the_strongest_keyword(self):
        self.assertEqual('MUST', verdict.level('x SHOULD y MUST NOT z'))
        self.assertEqual('SHOULD', verdict.level('x SHOULD y'))
        self.assertEqual('MAY', verdict.level('x may y'))


class TestVerdict(ReportTestCase):

    def test_a_lying_claim_fails_naming_the_requirement(self):
        result = self.evaluate([
            (_test('test_up_visibility', UP), 'fail',
             'x-openstack-request-id: %s\nAssertionError: over-permission'
             % REQ_ID),
            (_test('test_no_host_status_below_2_16', HS03), 'success'),
        ])
        self.assertEqual(1, result['exit_code'])
        row = result['by_id']['HS-01']
        self.assertEqual('fail', row['outcome'])
        self.assertEqual(['AssertionError: over-permission'],
                         row['messages'])
        self.assertEqual([REQ_ID], row['request_ids'])
        self.assertIn('HS-01', ' '.join(result['verdict']['lines'][:3]))
        # First the scopes (HS-01's fails host-status), then the verdict.
        self.assertEqual(
            'explored, not certified; verified: none; failed: host-status; '
            'not claimed: pending-state, cell0-rebuild',
            result['verdict']['lines'][0])
        self.assertTrue(result['verdict']['lines'][1].startswith(
            'VERDICT: FAIL'))

    def test_an_empty_stream_verifies_nothing(self):
        result = self.evaluate([])
        self.assertEqual(1, result['exit_code'])
        self.assertIn('nothing verified', ' '.join(result['verdict']['lines']))

    def test_every_test_skipped_verifies_nothing(self):
        result = self.evaluate([
            (_test('test_up_visibility', UP), 'skip',
             'set [compute] max_microversion'),
            (_test('test_no_host_status_below_2_16', HS03), 'skip', 'x')])
        self.assertEqual(1, result['exit_code'])
        self.assertIn('nothing verified: no requirement passed (2 test(s) '
                      'skipped)', result['verdict']['reasons'])
        self.assertEqual('set [compute] max_microversion',
                         result['by_id']['HS-01']['detail'])

    def test_setupclass_error_fails_every_requirement_of_its_class(self):
        result = self.evaluate([
            ('setUpClass (%s)' % HS_CLASS, 'fail',
             'tempest.lib.exceptions.InvalidConfiguration: bad'),
            (MOD + 'test_pending_state.PendingStateTest.test_x[id-%s]'
             % HS10, 'success')])
        self.assertEqual(1, result['exit_code'])
        for rid in ('HS-01', 'HS-02', 'HS-03', 'HS-14'):
            row = result['by_id'][rid]
            self.assertEqual('fail', row['outcome'], rid)
            self.assertIn('setUpClass of HostStatusTest failed: '
                          'tempest.lib.exceptions.InvalidConfiguration: bad',
                          row['messages'])

    def test_setupclass_skip_skips_every_requirement_of_its_class(self):
        reason = ('No NoValidHost trigger: set [nova_conformance] '
                  'novalidhost_trigger = trait (needs admin and placement).')
        result = self.evaluate([
            ('setUpClass (%s)' % HS_CLASS, 'skip', reason),
            (_test('test_no_host_status_below_2_16', HS03), 'success')])
        # HS-03's only test ran: a skip of another class does not touch it.
        self.assertEqual('pass', result['by_id']['HS-03']['outcome'])
        for rid in ('HS-01', 'HS-05'):
            row = result['by_id'][rid]
            self.assertEqual('skip', row['outcome'], rid)
            self.assertEqual(reason, row['detail'], rid)
        # A module-level skip skips the tests of every class of the module.
        result = self.evaluate([
            ('setUpModule (%s)' % HS_CLASS.rsplit('.', 1)[0], 'skip',
             reason)])
        self.assertEqual('skip', result['by_id']['HS-01']['outcome'])
        self.assertIn('nothing verified: no requirement passed',
                      ' '.join(result['verdict']['reasons']))

    def test_class_error_outside_the_catalogue_still_fails(self):
        result = self.evaluate([
            ('setUpClass (tempest.api.compute.servers.test_x.T)', 'fail',
             'boom'),
            (_test('test_no_host_status_below_2_16', HS03), 'success')])
        self.assertEqual(1, result['exit_code'])
        self.assertIn('class-level error', ' '.join(
            result['verdict']['reasons']))

    def test_failed_test_outside_the_catalogue_fails(self):
        result = self.evaluate([
            ('tempest.api.compute.servers.test_x.T.test_y[id-%s]'
             % '00000000-0000-4000-8000-000000000000', 'fail', 'boom'),
            (_test('test_no_host_status_below_2_16', HS03), 'success')])
        self.assertEqual(1, result['exit_code'])

    def test_certify_fails_on_a_skipped_must_explore_does_not(self):
        tests = [(_test('test_up_visibility', UP), 'success'),
                 (_test('test_no_host_status_below_2_16', HS03), 'skip',
                  'set [compute] max_microversion')]
        self.assertEqual(0, self.evaluate(tests)['exit_code'])
        result = self.evaluate(tests, mode=verdict.CERTIFY)
        self.assertEqual(1, result['exit_code'])
        self.assertIn('HS-03', ' '.join(result['verdict']['reasons']))

    def test_member_only_run_says_needs_admin_and_cannot_certify(self):
        tests = [(_test('test_up_visibility', UP), 'skip',
                  'Missing Identity Admin API credentials in configuration.'),
                 (MOD + 'test_member_only.MemberOnlyTest.'
                  'test_api_max_microversion[id-%s]' % PEND16, 'success')]
        claims = dict(CLAIMS, pending_state_microversion='2.105',
                      pending_state_enabled=True)
        result = self.evaluate(tests, claims=claims, admin=False,
                               mode=verdict.CERTIFY)
        rows = result['requirements']
        self.assertEqual('pass', result['by_id']['PEND-16']['outcome'])
        self.assertEqual('needs admin', result['by_id']['HS-01']['outcome'])
        self.assertEqual('needs admin', result['by_id']['PEND-02']['outcome'])
        self.assertFalse([r for r in rows if r['admin']
                          and r['outcome'] == 'pass'])
        self.assertTrue(result['verdict']['lines'][1].startswith(
            'this run cannot certify: it had no admin credentials'))
        self.assertEqual(1, result['exit_code'])

    def test_member_requirement_decided_by_its_member_tests(self):
        member = (MOD + 'test_member_only.MemberOnlyTest.test_member_views'
                  '[id-%s]' % HS16_MEMBER)
        tests = [('setUpClass (%s)' % HS_CLASS, 'skip',
                  'Missing Identity Admin API credentials in configuration.'),
                 (member, 'success')]
        row = self.evaluate(tests, admin=False)['by_id']['HS-16']
        self.assertEqual('pass', row['outcome'])
        self.assertIn('decided without admin by its member test(s)',
                      row['detail'])
        result = self.evaluate([(member, 'fail', 'AssertionError: x')],
                               admin=False)
        self.assertEqual('fail', result['by_id']['HS-16']['outcome'])
        # With admin every test of the requirement counts.
        result = self.evaluate(tests, admin=True)
        self.assertEqual('not run', result['by_id']['HS-16']['outcome'])

    def test_requirement_of_another_profile_is_not_applicable(self):
        result = self.evaluate([(_test('test_up_visibility', UP), 'success')])
        self.assertEqual('not run', result['by_id']['HS-14']['outcome'])
        self.assertEqual('pass', result['by_id']['HS-01']['outcome'])
        row = result['by_id']['HS-15']
        self.assertEqual('not applicable', row['outcome'])
        self.assertIn('host_status_policy_profile = admin_or_owner',
                      row['detail'])
        claims = dict(CLAIMS, host_status_policy_profile='admin_or_owner')
        result = self.evaluate([(_test('test_up_visibility', UP),
                                 'success')], claims=claims)
        self.assertEqual('not run', result['by_id']['HS-15']['outcome'])
        self.assertEqual('not applicable',
                         result['by_id']['HS-14']['outcome'])
        self.assertEqual('admin_or_owner', result['by_id']['HS-15']['profile'])

    def test_requirements_of_the_profile_services_apply(self):
        claims = dict(CLAIMS, host_status_profile_services={
            'unknown_only': 'compute-u'})
        result = self.evaluate([(_test('test_up_visibility', UP),
                                 'success')], claims=claims)
        self.assertEqual('not run', result['by_id']['HS-14']['outcome'])
        # Applicable (disruptive: this run may not stop a compute).
        self.assertEqual('needs disruption',
                         result['by_id']['HS-17']['outcome'])
        row = result['by_id']['HS-15']
        self.assertEqual('not applicable', row['outcome'])
        self.assertIn('the claims say admin_only, unknown_only',
                      row['detail'])
        self.assertEqual(['admin_only', 'unknown_only'],
                         result['by_id']['HS-17']['profiles'])

    def test_unclaimed_feature_is_not_applicable_in_certify(self):
        result = self.evaluate([(_test('test_up_visibility', UP), 'success')],
                               mode=verdict.CERTIFY)
        self.assertEqual('not applicable',
                         result['by_id']['RB-01']['outcome'])
        self.assertNotIn('RB-01', ' '.join(result['verdict']['reasons']))

    def test_leak_fails_certify_and_is_noted_in_explore(self):
        tests = [(_test('test_up_visibility', UP), 'success')]
        leak = ['server 1234 (tempest-x) of project p']
        explore = self.evaluate(tests, leaks=leak)
        self.assertEqual(0, explore['exit_code'])
        self.assertIn('left 1 resource', ' '.join(explore['verdict']['lines']))
        certify = self.evaluate(tests, leaks=leak, mode=verdict.CERTIFY)
        self.assertIn('the run left 1 resource(s) behind: ' + leak[0],
                      certify['verdict']['reasons'])
        self.assertEqual(1, certify['exit_code'])

    def test_known_divergence_is_reported_not_failed(self):
        result = self.evaluate([
            (MOD + 'test_host_status_disruptive.HostStatusDisruptiveTest.'
             'test_disabled_and_forced_down[id-%s,serial]' % HS10, 'xfail'),
            (_test('test_no_host_status_below_2_16', HS03), 'success')])
        row = result['by_id']['HS-10']
        self.assertEqual('known divergence', row['outcome'])
        self.assertIn('flagged 2026-11-22', row['detail'])
        self.assertEqual(0, result['exit_code'])
        self.assertIn('HS-10    MUST   known divergence', report.render(
            result['requirements'], result['totals'], result['verdict']))


class TestContext(fakes.FileTestCase):

    def test_claims_and_admin_from_tempest_conf(self):
        conf = self.write('t.conf', '[auth]\nadmin_username = admin\n'
                          '[nova_conformance]\npending_state_enabled = True\n'
                          'pending_state_microversion = 2.105\n'
                          'host_status_policy_profile = unknown_only\n'
                          'quota_counting_services = unified_limits:c-u\n')
        claims, admin = report.context_from_tempest_conf(conf)
        # A claim: reports name it with the others.
        self.assertEqual({'unified_limits': 'c-u'},
                         claims['quota_counting_services'])
        self.assertTrue(admin)
        self.assertIs(True, claims['pending_state_enabled'])
        self.assertEqual('2.105', claims['pending_state_microversion'])
        self.assertEqual('unknown_only', claims['host_status_policy_profile'])
        self.assertIsNone(claims.get('cell0_rebuild_microversion'))

    def test_admin_from_accounts_file(self):
        member = self.write('member.yaml', '- {username: u, password: p, '
                            'project_name: x, roles: [member]}\n')
        admin = self.write('admin.yaml', '- {username: a, password: p, '
                           'project_name: x, types: [admin]}\n')
        for accounts, expected in ((member, False), (admin, True)):
            conf = self.write('t.conf', '[auth]\nuse_dynamic_credentials = '
                              'False\ntest_accounts_file = %s\n' % accounts)
            self.assertEqual(expected,
                             report.context_from_tempest_conf(conf)[1])

    def test_bad_input_exits_2_with_a_message(self):
        self.useFixture(fixtures.MonkeyPatch('sys.stderr', io.StringIO()))
        conf = self.write('t.conf', '[nova_conformance]\n'
                          'disruptive_tests = maybe\n')
        self.assertEqual(2, report.main(['--tempest-conf', conf,
                                         '--subunit', '/dev/null']))
        self.assertIn("disruptive_tests = 'maybe' is not a boolean",
                      __import__('sys').stderr.getvalue())
        self.assertEqual(2, report.main(['--subunit',
                                         os.path.join(self.tmp, 'none')]))

    def test_main_writes_json_and_exits_with_the_verdict(self):
        self.useFixture(fixtures.MonkeyPatch('sys.stdout', io.StringIO()))
        for status, expected in (('fail', 1), ('success', 0)):
            path = os.path.join(self.tmp, status)
            with open(path, 'wb') as f:
                f.write(_subunit([(_test('t', HS03), status)]).getvalue())
            json_path = path + '.json'
            self.assertEqual(expected, report.main(
                ['--subunit', path, '--json', json_path]))
            with open(json_path) as f:
                data = json.load(f)
            self.assertEqual(expected, data['exit_code'])
            self.assertEqual(64, len(data['header']['catalogue_sha256']))
            self.assertEqual('explore', data['header']['mode'])


class TestApplies(testtools.TestCase):

    def test_shipped_conditions_are_valid(self):
        self.assertEqual([], catalogue.validate(catalogue.load()))

    def test_unknown_claim_is_a_problem(self):
        req = catalogue.load().by_id['HS-15']._replace(
            applies={'no_such_option': True, 'pending_state_enabled': 'x'})
        problems = catalogue._validate_applies(req)
        self.assertEqual(2, len(problems))
