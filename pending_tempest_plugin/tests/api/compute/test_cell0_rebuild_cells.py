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
"""Cell0 rebuilds on a cloud of several cells (nova's cells v2).

The spec: *Enable Rebuild for Instances in cell0*.  A server buried in
cell0 belongs to no cell; its rebuild must create it in the cell of the
host the scheduler picked, not in the first cell by habit.  The API does not
say which cell a host is in: the operator claims it (``[nova_conformance]
compute_host_cells``), and these tests need hosts of two cells among
``capacity_hosts``.  Each rebuilt server's capacity appears on one host
only (a trigger of its own: a private flavor requiring a trait that only
that host's provider gets), so where it lands is decided, cell by cell, in
reverse order of the cells' names (a cloud that creates every rebuilt
server in the first cell, cell1, fails on the first server).
"""

import json

from tempest import config
from tempest.lib import decorators

from pending_tempest_plugin.common import cell_control
from pending_tempest_plugin.common import checks
from pending_tempest_plugin.common import features
from pending_tempest_plugin.common import markers
from pending_tempest_plugin.common import microversions
from pending_tempest_plugin.common import polling
from pending_tempest_plugin.common import waiters
from pending_tempest_plugin.tests.api.compute import test_cell0_rebuild

CONF = config.CONF


class Cell0RebuildCellsBase(test_cell0_rebuild.Cell0RebuildBase):
    """What the cross-cell classes share; it has no test.

    The class's project (Tempest's credentials are per class) holds only
    the servers of the test running: the quota tests count them.
    """

    required_features = (features.two_cells,)

    def _cells(self):
        """[(cell, host)], one capacity host per claimed cell.

        The cells in reverse order of their names (cell2 before cell1):
        the first cell by habit comes last.
        """
        cells = features.host_cells()
        return [(cell, cells[cell][0]) for cell in sorted(cells,
                                                          reverse=True)]

    def _rebuilt_in(self, cell, host):
        """A server buried, then rebuilt where only ``host`` has capacity.

        Fails unless it ends ACTIVE on ``host``, UP, with nothing of it
        left in cell0 and its allocations right.
        """
        trigger, server = self._buried()
        trigger.add_capacity(trigger.pick_provider(host))
        body = self.rebuild_to_active(server['id'])
        self.assertEqual(
            host, body.get('OS-EXT-SRV-ATTR:host'),
            'Server %s rebuilt where only %s (cell %s) has capacity: '
            'expected it there, got host %r' % (
                server['id'], host, cell, body.get('OS-EXT-SRV-ATTR:host')))
        self._check_rebuilt(server['id'])
        return body

    def _admin_listing(self, ids):
        """{id: entry} of one admin detail listing of the owner's servers."""
        with self.at(microversions.HOST_STATUS_MICROVERSION):
            listed = self.admin_servers.list_servers(
                detail=True, all_tenants=True,
                tenant_id=self.owner_project_id)['servers']
        return dict((s['id'], s) for s in listed if s['id'] in ids)


class Cell0RebuildCellsTest(Cell0RebuildCellsBase):
    """Rebuilds landing in each cell; the quota counted across them."""

    @decorators.idempotent_id('5c0b7a3e-2f94-4d1a-8e6b-93a1d4f7c2e5')
    @markers.requirements('RB-49')
    def test_rebuilds_land_in_each_cell(self):
        """Rebuilt into each cell in turn: shown, listed, changed, deleted.

        Two servers buried in cell0; the first rebuilt where only a host
        of the last claimed cell has capacity, the second where only a
        host of the first one has.  Each is then shown (same ID, its host,
        host_status UP), listed in one admin listing with the other (each
        with its own host), renamed by its owner, its rebuild action and
        events read, and deleted leaving nothing: every request reaches
        the record in the cell its host is in.
        """
        placed = dict((self._rebuilt_in(cell, host)['id'], (cell, host))
                      for cell, host in self._cells())
        problems = []
        listed = self._admin_listing(set(placed))
        for server_id, (cell, host) in sorted(placed.items()):
            where = 'server %s rebuilt into %s (cell %s)' % (server_id,
                                                             host, cell)
            entry = listed.get(server_id)
            if entry is None:
                problems.append('%s: not in the admin listing of its '
                                'owner\'s servers' % where)
            elif (entry.get('OS-EXT-SRV-ATTR:host'), entry.get('status'),
                  entry.get('host_status')) != (host, 'ACTIVE', 'UP'):
                problems.append(
                    '%s: listed on host %r, %s, host_status %r; expected '
                    '%s, ACTIVE, UP' % (
                        where, entry.get('OS-EXT-SRV-ATTR:host'),
                        entry.get('status'), entry.get('host_status'),
                        host))
            name = '%s-renamed' % server_id[:8]
            self.owner_servers.update_server(server_id, name=name)
            shown = self.show(server_id)
            if shown.get('name') != name:
                problems.append('%s: renamed %s by its owner, shown as %r'
                                % (where, name, shown.get('name')))
            actions, events = self.instance_actions(server_id, 'rebuild')
            names = sorted(a['action'] for a in actions)
            if names != ['rebuild'] or not events:
                problems.append('%s: actions %s with rebuild events %s; '
                                'expected the rebuild action (the create '
                                'went with the cell0 record, '
                                'interp-instance-actions) and its events'
                                % (where, names, events))
        self.assertEqual([], problems)
        for server_id in sorted(placed):
            self.delete_leaving_nothing(server_id)

    @decorators.idempotent_id('a4e1f6d2-7b38-4c95-b0d7-1e6c2f8a9b34')
    @markers.requirements('RB-50')
    def test_quota_counts_the_servers_of_every_cell(self):
        """Servers in both cells count, each once, against a rebuild.

        One server rebuilt into each claimed cell: the owner's instances
        quota in use is the number of its servers (each counted once: the
        cell0 record of a rebuilt server is gone).  A third server is
        buried; the instances quota is set to what the owner's servers
        use, so the rebuild of the third does not fit: the conductor,
        counting the servers of every cell, refuses it (ERROR, no host,
        interp-quota-recheck).  A count that missed a cell would let it
        build.  With room for exactly one more server it is rebuilt: a
        count that took a server twice would refuse it again.
        """
        placed = [self._rebuilt_in(cell, host)['id']
                  for cell, host in self._cells()]
        in_use = self.others_usage('instances')
        self.assertEqual(
            len(placed), in_use,
            'Instances in use by the owner, whose servers are %s (one '
            'rebuilt into each cell): expected %d, each counted once, got '
            '%d' % (', '.join(placed), len(placed), in_use))
        trigger, server = self._buried()
        limit = in_use + self.need(server['id'], 'instances') - 1
        when = (' (instances quota %d: %d servers in %d cells, one buried)'
                % (limit, len(placed), len(placed)))
        restore = self.set_quota(instances=limit)
        trigger.add_capacity()
        self.rebuild(server['id'])
        body = self.wait_status(server['id'], waiters.TERMINAL | {'ACTIVE'})
        problems = []
        if body.get('OS-EXT-SRV-ATTR:host') or body['status'] != 'ERROR':
            problems.append(
                'the rebuild the quota did not allow%s: expected ERROR and '
                'no host, got %s on host %r' % (
                    when, waiters.describe(body),
                    body.get('OS-EXT-SRV-ATTR:host')))
        limit_now, in_use_now = self.usage('instances')
        overrun = checks.quota_overrun('instances', limit_now, in_use + 1,
                                       in_use_now)
        if overrun:
            problems.append(overrun + when)
        self.assertEqual([], problems)
        # Room for exactly this server: a count that took any server of
        # any cell twice would refuse it again.
        restore()
        self.set_quota(instances=limit + 1)
        self.rebuild_to_active(server['id'])
        self._check_rebuilt(server['id'])


# Nova's API gives a server of a cell that is down as a minimal record from
# microversion 2.69 (its ID, status UNKNOWN, no name) in a plain listing
# and in show.  A listing with a filter (all_tenants alone excepted), a
# sort or paging, or below 2.69, leaves the cell's servers out with [api]
# list_records_by_skipping_down_cells = True (nova's default; the tests
# need it: their waits read such listings) and fails with it False.
DOWN_CELL_MICROVERSION = '2.69'
MINIMAL_STATUS = 'UNKNOWN'

# Whether a quota counting mode counts the servers of a cell that is down:
# not in the cell databases (nova's documented limitation), yes in
# placement and with unified limits (instances are counted in the API
# database's instance mappings).
COUNTED_WHILE_DOWN = {'db': False, 'placement': True,
                      'unified_limits': True}

# How long a cell's database may take to read as down once its stop
# command returned (nova-api's connections to it fail at once when it
# refuses them).
DOWN_TIMEOUT = 60


@decorators.serial
class Cell0RebuildDownCellTest(Cell0RebuildCellsBase):
    """A cell that is down: PENDING servers, listings, rebuilds and quota.

    Each test puts a server in the cell it takes down (the first of
    ``[nova_conformance] disruptive_cells``), stops that cell's database
    (``cell_stop_command``: its services keep running), waits until
    nova-api shows that server as a down cell's (UNKNOWN), and starts the
    cell again at cleanup, before anything the test made before the
    outage is undone, waiting until the cell's computes read up.  Serial
    (Tempest's ``serial`` class lock): no other test runs while a cell is
    down.
    """

    required_features = (features.down_cell,)

    def setUp(self):
        super(Cell0RebuildDownCellTest, self).setUp()
        self.require_microversions(DOWN_CELL_MICROVERSION)
        self.cell_control = cell_control.CellControl(
            self, self.os_admin.services_client)
        self.down = CONF.nova_conformance.disruptive_cells[0]
        cells = features.host_cells()
        self.down_host = cells[self.down][0]
        self.live, self.live_host = next(
            (cell, hosts[0]) for cell, hosts in sorted(cells.items())
            if cell != self.down)

    def _take_down(self, server_id):
        """Stop the down cell's database (started again at cleanup).

        ``server_id``: a server of the cell; the cell is down once nova-api
        shows it as a down cell's (status UNKNOWN at 2.69): a stop command
        that stopped nothing fails the test here.
        """
        claimed = CONF.nova_conformance.compute_host_cells
        self.cell_control.stop(self.down, sorted(
            host for host, cell in claimed.items() if cell == self.down))
        polling.poll(
            lambda: self._unvalidated('servers/%s' % server_id,
                                      DOWN_CELL_MICROVERSION)['server'],
            lambda body: body.get('status') == MINIMAL_STATUS,
            DOWN_TIMEOUT, waiters.poll_interval(),
            what='cell %s down (server %s shown as %s)' % (
                self.down, server_id, MINIMAL_STATUS),
            describe=lambda body: body.get('status'),
            timed_out=lambda body: self.failureException(
                'cell %s: %s ran, but server %s of the cell is still shown '
                'as %s within %d s, not %s: the cell is not down' % (
                    self.down, 'cell_stop_command', server_id,
                    body.get('status'), DOWN_TIMEOUT, MINIMAL_STATUS)))

    def _owner_listing(self, version):
        """{id: entry} of the owner's plain detail listing at ``version``.

        No filter, no sort, no paging: with any, nova leaves a down cell's
        servers out even from 2.69.
        """
        listed = self._unvalidated('servers/detail', version)['servers']
        return dict((s['id'], s) for s in listed)

    def _unvalidated(self, url, version):
        """The owner's GET of ``url`` at ``version``, its body as read.

        Not through the client's schemas: Tempest's for the microversions
        after 2.69 require a name, which a down cell's minimal record has
        not.
        """
        with self.at(version):
            resp, body = self.owner_servers.get(url)
        self.assertEqual(200, resp.status, 'GET %s at %s: %s %s' % (
            url, version, resp.status, body))
        return json.loads(body)

    @decorators.attr(type='slow')
    @decorators.idempotent_id('0e7d4b1a-96c3-4f58-a2e1-7b5c3d9f8a26')
    @markers.requirements('PEND-21')
    def test_pending_server_while_a_cell_is_down(self):
        """Buried, shown, listed and deleted while a cell is down.

        The owner has a server in a live cell and one in the cell taken
        down; a third is buried while that cell is down.  In the owner's
        plain listing at the cloud's microversion the buried one is listed
        in full (its buried status, its name), the live cell's in full, the
        down cell's as nova's minimal record (status UNKNOWN, no name);
        the buried one is shown in its buried state, then deleted, leaving
        nothing.
        """
        live = self._rebuilt_in(self.live, self.live_host)['id']
        down = self._rebuilt_in(self.down, self.down_host)['id']
        self._take_down(down)
        trigger, buried = self._buried()
        status = self.expected_buried()[0]
        problems = []
        listed = self._owner_listing(self.view_mv)
        expected = ((buried['id'], status, True), (live, 'ACTIVE', True),
                    (down, MINIMAL_STATUS, False))
        for server_id, want, full in expected:
            entry = listed.get(server_id)
            if entry is None:
                problems.append('%s: not in the owner\'s listing at %s' % (
                    server_id, self.view_mv))
            elif (entry.get('status'), 'name' in entry) != (want, full):
                problems.append(
                    '%s: listed at %s as %s %s; expected %s %s' % (
                        server_id, self.view_mv, entry.get('status'),
                        'with its name' if 'name' in entry else
                        'without a name', want,
                        'with its name' if full else
                        'as a minimal record (no name)'))
        self.assertEqual(status, self.show(buried['id'])['status'],
                         'Buried server %s shown while cell %s is down'
                         % (buried['id'], self.down))
        self.assertEqual([], problems, 'cell %s down' % self.down)
        self.delete_leaving_nothing(buried['id'])

    @decorators.attr(type='slow')
    @decorators.idempotent_id('b6f2c8d4-1a57-4e93-8c0b-5d7e9a3f1c64')
    @markers.requirements('RB-51', 'RB-52')
    def test_rebuild_while_a_cell_is_down(self):
        """Counted as nova documents; rebuilt into a live cell only.

        The owner has a server in the cell taken down and a buried one.
        While the cell is down, the instances in use, read through each
        claimed quota counting mode's endpoint, leave out the down cell's
        server where quota is counted in the cell databases (db, nova's
        documented undercount) and still count it where it is counted in
        the API database's instance mappings (placement, unified limits).
        The buried server's trigger then gives capacity to the down cell's
        host only: the rebuild finds no host (the scheduler cannot see the
        down cell's computes) and the server is buried again; with
        capacity on the live cell's host too, it is rebuilt there.
        """
        in_cell = self._rebuilt_in(self.down, self.down_host)['id']
        trigger, server = self._buried()
        countings = [(mode, None if service is None else
                      self.os_admin.compute.QuotasClient(service=service))
                     for mode, service in features.quota_countings()]
        before = [(mode, quotas,
                   self.others_usage('instances', quotas=quotas))
                  for mode, quotas in countings]
        down_provider = trigger.pick_provider(self.down_host)
        live_provider = trigger.pick_provider(self.live_host)
        self._take_down(in_cell)
        problems = []
        for mode, quotas, in_use in before:
            want = in_use - (0 if COUNTED_WHILE_DOWN[mode] else 1)
            now = self.usage('instances', quotas=quotas)[1]
            if now != want:
                problems.append(
                    'instances in use by the owner (quota counting %s), '
                    'whose %d servers include %s in cell %s: expected %d '
                    'while the cell is down, got %d' % (
                        mode, in_use, in_cell, self.down, want, now))
        self.assertEqual([], problems)
        trigger.add_capacity(down_provider)
        self.rebuild(server['id'])
        self._assert_buried_again(
            server['id'], 'with capacity only on %s, whose cell %s is '
            'down' % (self.down_host, self.down))
        trigger.add_capacity(live_provider)
        body = self.rebuild_to_active(server['id'])
        self.assertEqual(
            self.live_host, body.get('OS-EXT-SRV-ATTR:host'),
            'Server %s rebuilt while cell %s is down, capacity on %s and %s: '
            'expected it on the live cell\'s %s' % (
                server['id'], self.down, self.down_host, self.live_host,
                self.live_host))
        self._check_rebuilt(server['id'])
