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

import fixtures
import subunit
import testtools

from pending_tempest_plugin.conformance import catalogue
from pending_tempest_plugin.conformance import report

HS10 = 'a97a02bf-9f49-4f0c-a32b-3f4cfd175b76'
HS03 = '8b938570-a9cc-4900-8182-6fc371dbab04'
MOD = 'pending_tempest_plugin.tests.api.compute.'


def _subunit(statuses):
    out = io.BytesIO()
    stream = subunit.StreamResultToBytes(out)
    for test_id, status in statuses:
        stream.status(test_id=test_id, test_status='inprogress')
        stream.status(test_id=test_id, test_status=status)
    return io.BytesIO(out.getvalue())


class TestReport(testtools.TestCase):

    def test_results_from_subunit(self):
        stream = _subunit([
            (MOD + 'test_host_status.HostStatusTest.test_no_host_status_'
             'below_2_16[id-%s]' % HS03, 'success'),
            (MOD + 'test_host_status_disruptive.HostStatusDisruptiveTest.'
             'test_disabled_and_forced_down[id-%s,serial]' % HS10, 'xfail'),
            ('tempest.api.compute.servers.test_x.T.test_y', 'fail'),
        ])
        self.assertEqual({HS03: 'pass', HS10: 'xfail'},
                         report.results_from_subunit(stream))

    def test_worst_result_of_a_repeated_test_stands(self):
        name = 'x.T.test[id-%s]' % HS03
        self.assertEqual({HS03: 'fail'}, report.results_from_statuses(
            [(name, 'success'), (name, 'fail'), (name, 'skip')]))

    def test_known_divergence_is_reported_not_failed(self):
        rows, totals = report.build(catalogue.load(),
                                    {HS10: 'xfail', HS03: 'pass'})
        by_id = {row['id']: row for row in rows}
        self.assertEqual('known divergence', by_id['HS-10']['outcome'])
        self.assertIn('flagged 2026-11-22', by_id['HS-10']['detail'])
        self.assertEqual('pass', by_id['HS-03']['outcome'])
        self.assertNotIn('fail', totals)
        self.assertIn('HS-10    known divergence', report.render(rows, totals))

    def test_exit_status(self):
        self.useFixture(fixtures.MonkeyPatch('sys.stdout', io.StringIO()))
        tmp = self.useFixture(fixtures.TempDir()).path
        for status, expected in (('fail', 1), ('success', 0)):
            path = os.path.join(tmp, status)
            with open(path, 'wb') as f:
                f.write(_subunit([('x.T.test[id-%s]' % HS03,
                                   status)]).getvalue())
            json_path = path + '.json'
            self.assertEqual(expected, report.main(
                ['--subunit', path, '--json', json_path]))
            with open(json_path) as f:
                self.assertIn('HS-03', f.read())
