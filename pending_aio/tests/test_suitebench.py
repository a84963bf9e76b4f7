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

import datetime
import io

import fixtures
from tempest.tests import base

from pending_aio.bench import suite as sb

U1 = '11111111-1111-1111-1111-111111111111'
U2 = '22222222-2222-2222-2222-222222222222'
U3 = '33333333-3333-3333-3333-333333333333'
S1 = 'aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa'
S2 = 'bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb'


def test(name, uuid, worker, start, end, status='success'):
    return sb.Test('p.m.%s[id-%s]' % (name, uuid), status, worker, start,
                   end)


class TestFigures(base.TestCase):

    def test_median(self):
        self.assertEqual(2, sb.median([3, 1, 2]))
        self.assertEqual(2.5, sb.median([4, 1, 3, 2]))
        self.assertRaises(ValueError, sb.median, [])

    def test_count_log(self):
        poll = (b'2026 1 INFO pending_tempest_plugin.common.polling [-] '
                b'server %s to %s: %s (vm_state x, task_state None) '
                b'(after 1.0 s)')
        lines = [
            b'x 202 POST http://h/v2.1/servers 0.5',
            b'x 202 POST http://h/v2.1/servers 0.5',
            b'x 202 POST http://h/v2.1/servers 0.5',
            b'x 202 POST http://h/v2.1/servers/%s/action 0.1' % S1.encode(),
            poll % (S1.encode(), b'ERROR/PENDING', b'BUILD'),
            poll % (S1.encode(), b'ERROR/PENDING', b'PENDING'),
            poll % (S1.encode(), b'ACTIVE/ERROR/PENDING', b'PENDING'),
            poll % (S2.encode(), b'ACTIVE', b'ACTIVE'),
            poll % (S1.encode(), b'ACTIVE', b'ACTIVE'),
            b'x 204 DELETE http://h/v2.1/servers/%s 0.1' % S1.encode(),
            b'x 204 DELETE http://h/v2.1/servers/%s 0.1' % S1.encode(),
            b'x 204 DELETE http://h/v2.1/servers/%s 0.1' % S2.encode(),
            b'x 404 DELETE http://h/v2.1/servers/%s 0.1' % U1.encode(),
        ]
        # S1's second wait ended buried (a rebuild that did not
        # schedule); a wait for ACTIVE that sees PENDING on its way is no
        # burial.
        self.assertEqual(sb.Counts(boots=3, buried=1, deletes=2, actions=1,
                                   rebuilt=1, reburied=1),
                         sb.count_log(lines))
        lines.append(poll % (S2.encode(), b'ACTIVE', b'PENDING'))
        self.assertEqual(1, sb.count_log(lines).reburied)

    def test_attribute_charges_class_setup_to_the_class(self):
        tests = [
            # worker-0: class A (setup 2 s after the run start), then B.
            test('A.t1', U1, 'worker-0', 2.0, 3.0),
            test('A.t2', U2, 'worker-0', 3.5, 4.5),
            test('B.t1', U3, 'worker-0', 8.5, 9.5),
            # worker-1: class C, its first test 1 s after the start.
            test('C.t1', U1, 'worker-1', 1.0, 5.0),
        ]
        charged, overhead = sb.attribute(tests, start=0.0)
        self.assertEqual({'p.m.A': 2.0, 'p.m.B': 4.0, 'p.m.C': 1.0},
                         overhead)
        self.assertEqual(2.0, charged['p.m.A.t1[id-%s]' % U1])
        # The 0.5 s gap inside the class belongs to the later test.
        self.assertEqual(2.5, charged['p.m.A.t2[id-%s]' % U2])
        self.assertEqual(5.0, charged['p.m.B.t1[id-%s]' % U3])
        self.assertEqual(5.0, charged['p.m.C.t1[id-%s]' % U1])
        # Every second of each worker's span is charged once.
        self.assertEqual(9.5 + 5.0, sum(charged.values()))

    def test_attribute_parallel_phase_starts_after_the_serial_one(self):
        # The runner's serial phase (worker-0 alone, S.t 0-40 s), then
        # the parallel one: worker-1's first class is charged its gap
        # from the serial phase's end (2 s), not from the run's start.
        tests = [
            test('S.t', U1, 'worker-0', 1.0, 40.0),
            test('A.t', U2, 'worker-0', 43.0, 44.0),
            test('B.t', U3, 'worker-1', 42.0, 45.0),
        ]
        serial = ['p.m.S.t[id-%s]' % U1]
        charged, overhead = sb.attribute(tests, start=0.0, serial=serial)
        self.assertEqual({'p.m.S': 1.0, 'p.m.A': 3.0, 'p.m.B': 2.0},
                         overhead)
        self.assertEqual(5.0, charged['p.m.B.t[id-%s]' % U3])
        # Without the phases, worker-1's first gap spans the serial phase.
        self.assertEqual(42.0, sb.attribute(tests, start=0.0)[1]['p.m.B'])

    def test_serial_ids_reads_the_classes_and_names_the_unknown(self):
        plugin = 'pending_tempest_plugin.tests.api.compute.'
        serial = sb.Test(plugin + 'test_host_status_listing.'
                         'HostStatusListingStoppedComputeTest.test_unknown'
                         '[id-%s]' % U1, 'success', 'worker-0', 0, 1)
        other = sb.Test(plugin + 'test_host_status.HostStatusTest.'
                        'test_up_visibility[id-%s]' % U2, 'success',
                        'worker-0', 1, 2)
        gone = test('Gone.t', U3, 'worker-1', 1, 2)
        skipped = sb.Test('setUpClass (%stest_pending_state.'
                          'PendingStateOffTest)' % plugin, 'skip',
                          'worker-1', 2, 2)
        err = io.StringIO()
        self.assertEqual([serial.id], sb.serial_ids(
            [serial, other, gone, skipped], err=err))
        self.assertIn('1 class(es) could not be imported, counted in the '
                      'parallel phase: p.m.Gone', err.getvalue())

    def test_attribute_without_a_serial_phase_is_one_phase(self):
        tests = [test('A.t', U1, 'worker-0', 1.0, 2.0),
                 test('B.t', U2, 'worker-1', 3.0, 4.0)]
        self.assertEqual(sb.attribute(tests, start=0.0),
                         sb.attribute(tests, start=0.0, serial=[]))

    def test_attribute_default_start_and_nothing(self):
        charged, overhead = sb.attribute([test('A.t', U1, '', 5.0, 6.0)])
        self.assertEqual({'p.m.A': 0.0}, overhead)
        self.assertEqual([1.0], list(charged.values()))
        self.assertEqual(({}, {}), sb.attribute([]))

    def test_by_requirement(self):
        tests = [test('A.t1', U1, 'w', 0, 1),
                 test('A.t2', U2, 'w', 1, 2, status='fail'),
                 test('A.t3', U3, 'w', 2, 3, status='skip')]
        charged = {t.id: 2.0 for t in tests}
        rows, undecided = sb.by_requirement(
            [('HS-01', (U1, U2)), ('HS-02', (U2,)), ('PEND-01', (U3,)),
             ('RB-09', ())], tests, charged)
        self.assertEqual([('HS-01', 4.0, 2), ('HS-02', 2.0, 1)], rows)
        self.assertEqual(['PEND-01'], undecided)

    def test_floor_and_ratio(self):
        counts = sb.Counts(boots=10, buried=4, deletes=10, actions=3)
        floor = {'active': 2.0, 'pending': 0.5, 'delete': 0.4}
        # (6 x 2.0 + 4 x 0.5 + 10 x 0.4) / 2
        self.assertEqual(9.0, sb.floor_seconds(counts, floor, 2))
        self.assertIn('2.00x the floor (target: at most 2x: met)',
                      sb.ratio_line(18.0, 9.0))
        self.assertIn('3.00x the floor (target: at most 2x: missed)',
                      sb.ratio_line(27.0, 9.0))
        self.assertIn('missed', sb.ratio_line(1.0, 0.0))

    def test_report_lines(self):
        counts = sb.Counts(boots=10, buried=4, deletes=10, actions=3)
        floor = {'active': [2.0, 1.0, 3.0], 'pending': [0.5],
                 'delete': [0.4, 0.4], 'pending_status': 'PENDING'}
        lines = sb.report_lines('reference-pending-on-admin_only', 27.0,
                                counts, floor, 2, [('HS-01', 4.0, 2)],
                                ['PEND-01'], {'p.m.A': 2.0})
        text = '\n'.join(lines)
        self.assertIn('leg reference-pending-on-admin_only: wall time 27.0 s',
                      text)
        self.assertIn('servers booted 10 (6 to ACTIVE, 4 buried', text)
        self.assertIn('ACTIVE 2.00 s, PENDING 0.50 s, delete 0.40 s', text)
        self.assertIn('(6 x 2.00 + 4 x 0.50 + 10 x 0.40) / 2 = 9.0 s', text)
        self.assertIn('3.00x the floor', text)
        self.assertIn('requirements decided 1: 27.0 s wall per requirement',
                      text)
        self.assertIn('not decided in this leg: PEND-01', text)
        self.assertIn('  HS-01      4.0 s  (2 tests)', text)
        self.assertIn('     2.0 s  A', text)
        self.assertIn('the floor with 2 clients at once was not measured',
                      text)
        lines = sb.report_lines('l', 27.0, counts, None, 2, [], [], {})
        self.assertIn("the cloud's floor was not measured", '\n'.join(lines))

    def test_the_target_is_judged_on_the_floor_at_the_legs_concurrency(self):
        counts = sb.Counts(boots=10, buried=4, deletes=10, actions=3)
        alone = {'active': [2.0], 'pending': [0.5], 'delete': [0.4]}
        together = {'active': [4.0], 'pending': [1.0], 'delete': [0.8],
                    'pending_status': 'PENDING', 'concurrency': 2}
        text = '\n'.join(sb.report_lines('l', 27.0, counts, alone, 2, [],
                                         [], {}, together))
        # (6 x 4.0 + 4 x 1.0 + 10 x 0.8) / 2 = 18.0: 1.5x, met
        self.assertIn("the cloud's floor, 2 clients at once (median of 1",
                      text)
        self.assertIn('/ 2 = 18.0 s\nratio 1.50x the floor (target: at most '
                      '2x: met)', text)
        # The one-client floor (9.0 s) printed beside it, not judged.
        self.assertIn('/ 2 = 9.0 s (one-client times', text)
        self.assertIn('with the one-client floor: ratio 3.00x (the target '
                      'is judged on the floor above)', text)
        self.assertEqual(1, text.count('target: at most'))

    def test_subunit_tests(self):
        from subunit import v2

        stream = io.BytesIO()
        out = v2.StreamResultToBytes(stream)
        t0 = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
        name = 'p.m.A.t1[id-%s]' % U1
        out.status(test_id=name, test_status='inprogress', timestamp=t0,
                   test_tags={'worker-1'})
        out.status(test_id=name, test_status='success', test_tags={
            'worker-1'}, timestamp=t0 + datetime.timedelta(seconds=1.5))
        stream.seek(0)
        self.assertEqual(
            [sb.Test(name, 'success', 'worker-1', t0.timestamp(),
                     t0.timestamp() + 1.5)], sb.subunit_tests(stream))

    def test_catalogue_rows(self):
        rows = dict(sb.catalogue_rows())
        self.assertIn('3834ed88-cfd6-4a9b-992d-f7c62d5055e0', rows['HS-01'])


class FakeResp(object):

    def __init__(self, status_code, body=None):
        self.status_code, self.body = status_code, body

    def json(self):
        return self.body

    def raise_for_status(self):
        if self.status_code >= 400:
            raise RuntimeError('HTTP %d' % self.status_code)


class FakeApi(object):
    """Servers go to STATUS on the first GET, are gone after DELETE."""

    def __init__(self, calls, status='ACTIVE'):
        self.calls, self.status, self.servers = calls, status, {}

    def post(self, url, json=None, microversion=None):
        self.calls.append(('POST', url, microversion))
        if url == '/servers':
            sid = 's%d' % len(self.servers)
            self.servers[sid] = (self.status
                                 if json['server']['flavorRef'] == 'nano'
                                 else 'PENDING')
            return FakeResp(202, {'server': {'id': sid}})
        return FakeResp(200, {'flavor': {'id': 'nvh'}})

    def put(self, url, microversion=None):
        self.calls.append(('PUT', url, microversion))
        return FakeResp(201)

    def get(self, url, microversion=None):
        sid = url.rsplit('/', 1)[-1]
        if sid not in self.servers:
            return FakeResp(404)
        return FakeResp(200, {'server': {'status': self.servers[sid]}})

    def delete(self, url, microversion=None):
        self.calls.append(('DELETE', url, microversion))
        self.servers.pop(url.rsplit('/', 1)[-1], None)
        return FakeResp(204)


class FakeConn(object):

    def __init__(self, calls, status='ACTIVE'):
        import types
        self.compute = FakeApi(calls, status)
        self.placement = self.compute
        self.compute.find_flavor = lambda name, ignore_missing: (
            types.SimpleNamespace(id='nano', ram=64, vcpus=1, disk=1))
        self.network = types.SimpleNamespace(
            find_network=lambda name, ignore_missing: types.SimpleNamespace(
                id='net'))
        self.image = types.SimpleNamespace(
            find_image=lambda name, ignore_missing: types.SimpleNamespace(
                id='img'))
        self.current_project_id = 'p'


class TestFloor(base.TestCase):

    def setUp(self):
        super().setUp()
        from pending_aio.bench import floor
        self.floor = floor
        self.useFixture(fixtures.MockPatchObject(floor, 'POLL', 0))

    def test_measure_and_clean_up(self):
        calls = []
        conn = FakeConn(calls)
        got, status = self.floor.measure(conn, conn, 2, '2.105')
        self.assertEqual('PENDING', status)
        self.assertEqual([2, 2, 2], [len(got[k]) for k in
                                     ('active', 'pending', 'delete')])
        self.assertEqual({}, conn.compute.servers)
        deleted = [url for verb, url, _ in calls if verb == 'DELETE']
        trait = [url for verb, url, _ in calls if verb == 'PUT'][0]
        # The trait, then the flavor, after the last server.
        self.assertEqual([trait, '/flavors/nvh'], deleted[-2:])
        self.assertIn(('POST', '/servers', '2.105'), calls)

    def test_clients_at_once_each_clean_up_and_poll_less_often(self):
        calls, conns, polls = [], [], []

        def connect(cloud):
            conns.append(FakeConn(calls))
            return conns[-1]
        real_wait = self.floor._wait

        def wait(conn, server_id, mv, done, t0, poll=None):
            polls.append(poll)
            return real_wait(conn, server_id, mv, done, t0, poll)
        self.useFixture(fixtures.MockPatchObject(self.floor, 'POLL', 0.001))
        self.useFixture(fixtures.MockPatchObject(self.floor, '_wait', wait))
        got, status = self.floor.measure_together(connect, 2, 2, '2.105')
        self.assertEqual('PENDING', status)
        # Two clients, each with its own member and admin connections.
        self.assertEqual(4, len(conns))
        self.assertEqual([4, 4, 4], [len(got[k]) for k in
                                     ('active', 'pending', 'delete')])
        self.assertEqual([{}] * 4, [c.compute.servers for c in conns])
        self.assertEqual({0.002}, set(polls))

    def test_a_failing_client_fails_the_floor_after_the_others(self):
        statuses = iter(['ACTIVE', 'ERROR'])
        conns = []

        def connect(cloud):
            if cloud == 'aio-member':
                conns.append(FakeConn([], status=next(statuses)))
            return conns[-1]
        self.assertRaises(SystemExit, self.floor.measure_together, connect,
                          2, 1, '2.105')
        self.assertEqual([{}, {}], [c.compute.servers for c in conns])

    def test_concurrency_below_one_is_refused(self):
        self.useFixture(fixtures.MockPatch('sys.stderr'))
        exc = self.assertRaises(SystemExit, self.floor.main,
                                ['--concurrency', '0'])
        self.assertEqual(2, exc.code)

    def test_a_failed_boot_fails_and_cleans_up(self):
        calls = []
        conn = FakeConn(calls, status='ERROR')
        self.assertRaises(SystemExit, self.floor.measure, conn, conn, 1,
                          '2.105')
        self.assertEqual({}, conn.compute.servers)
