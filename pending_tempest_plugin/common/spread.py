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
"""Where the host_status listing tests put their servers.

Pure (no client): from the hosts the scheduler chose, the computes that
are up and the hosts a disruptive test may disturb, the cold migrations
that leave servers on two hosts.  Unit tested in
``unit_tests/test_spread.py``.
"""


def spread_plan(hosts_of, computes, allowed):
    """The moves that put servers on two hosts, and the host to disturb.

    :param hosts_of: server id -> host the scheduler chose (ordered).
    :param computes: hosts of the enabled, up nova-compute services.
    :param allowed: hosts a disruptive test may disable (None: any).
    :returns: (target, moves): ``target`` is a host in ``allowed`` that
              will hold at least one server, ``moves`` the (server id,
              host) cold migrations that leave servers on ``target`` and
              on another host.
    :raises ValueError: when no such layout exists.
    """
    candidates = [h for h in computes if allowed is None or h in allowed]
    if not candidates or len(computes) < 2:
        raise ValueError(
            'servers on two hosts, one of them in %s, need two enabled and '
            'up computes; found %s' % (
                'any host' if allowed is None else list(allowed),
                list(computes) or 'none'))
    used = [h for h in hosts_of.values() if h in candidates]
    target = used[0] if used else candidates[0]
    moves = []
    placed = dict(hosts_of)
    if target not in placed.values():
        server = list(placed)[0]
        moves.append((server, target))
        placed[server] = target
    if all(h == target for h in placed.values()):
        other = [h for h in computes if h != target][0]
        server = [s for s, h in placed.items() if h == target][-1]
        moves.append((server, other))
        placed[server] = other
    return target, moves
