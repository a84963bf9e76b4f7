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
"""pending.aio.ovs_external_ids: chassis identity, written when it differs."""

import json

from backend_fakes import BackendTestCase

from ansible_collections.pending.aio.plugins.module_utils import (
    aio_backends)
from ansible_collections.pending.aio.plugins.modules import (
    ovs_external_ids)

IDS = {'system-id': 'compute1', 'ovn-remote': 'unix:/run/ovnsb_db.sock',
       'ovn-encap-type': 'geneve'}
VSCTL = ['ovs-vsctl', '--db=unix:/run/ovs-compute1/db.sock', '--timeout=10']


def listing(ids):
    """ovs-vsctl --format=json --columns=external_ids list Open_vSwitch."""
    rows = [] if ids is None else [
        [['map', sorted([k, v] for k, v in ids.items())]]]
    return json.dumps({'data': rows, 'headings': ['external_ids']})


class TestOvsExternalIds(BackendTestCase):

    def ids(self, have, check=False, db='/run/ovs-compute1/db.sock'):
        run = self.fake([(['list'], listing(have), 0)])
        result = aio_backends.ovs_external_ids(db, IDS, check=check)
        return run, result

    def writes(self, run):
        return [c[0] for c in run.calls if 'list' not in c[0]]

    def test_same_ids_write_nothing(self):
        run, (changed, details) = self.ids(dict(IDS, other='kept'))
        self.assertFalse(changed)
        self.assertEqual([], details['differ'])
        self.assertEqual([], self.writes(run))
        self.assertEqual(VSCTL + ['--no-wait', '--format=json',
                                  '--columns=external_ids', 'list',
                                  'Open_vSwitch'], run.calls[0][0])

    def test_one_differing_id_runs_init_then_sets_every_id(self):
        run, (changed, details) = self.ids(dict(IDS, **{'system-id': 'x'}))
        self.assertTrue(changed)
        self.assertEqual(['system-id'], details['differ'])
        self.assertEqual('x', details['before']['system-id'])
        self.assertEqual(
            [VSCTL + ['--no-wait', 'init'],
             VSCTL + ['--no-wait', 'set', 'Open_vSwitch', '.',
                      'external_ids:system-id="compute1"',
                      'external_ids:ovn-remote="unix:/run/ovnsb_db.sock"',
                      'external_ids:ovn-encap-type="geneve"']],
            self.writes(run))

    def test_a_new_database_without_a_record_gets_them(self):
        run, (changed, details) = self.ids(None)
        self.assertTrue(changed)
        self.assertEqual(sorted(IDS), details['differ'])
        self.assertEqual(2, len(self.writes(run)))

    def test_check_mode_reads_and_writes_nothing(self):
        run, (changed, details) = self.ids({}, check=True)
        self.assertTrue(changed)
        self.assertEqual(sorted(IDS), details['differ'])
        self.assertEqual([], self.writes(run))

    def test_db_is_a_socket_path_or_a_db_value(self):
        self.assertEqual('unix:/run/db.sock', aio_backends.ovs_db(
            '/run/db.sock'))
        self.assertEqual('unix:/run/db.sock', aio_backends.ovs_db(
            'unix:/run/db.sock'))
        self.assertEqual('tcp:127.0.0.1:6640', aio_backends.ovs_db(
            'tcp:127.0.0.1:6640'))

    def test_a_value_with_quotes_is_escaped(self):
        run = self.fake([(['list'], listing({}), 0)])
        aio_backends.ovs_external_ids('/db.sock', {'odd key': 'a "b"'})
        self.assertEqual('external_ids:"odd key"="a \\"b\\""',
                         run.calls[-1][0][-1])

    def test_an_unreachable_database_is_a_clear_error(self):
        self.fake([(['list'], '', 1, 'ovs-vsctl: unix:/x: database '
                    'connection failed (No such file or directory)')])
        exc = self.assertRaises(aio_backends.BackendError,
                                aio_backends.ovs_external_ids, '/x', IDS)
        self.assertIn('database connection failed', str(exc))
        self.assertIn('reading external_ids', str(exc))

    def test_the_module_documents_its_options(self):
        self.assertDocumentsItsOptions(ovs_external_ids)
