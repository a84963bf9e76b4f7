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
"""What a run left behind on the cloud, found by the run's own name prefix.

Every resource the suite and Tempest's dynamic credentials create is named
``<resource_name_prefix>-...``, and ``init`` gives each workspace a prefix
of its own (``pcf`` and 8 hex digits), so another tenant's activity on a
shared cloud is never counted.  With admin credentials the search covers
every project (servers, volumes, ports, networks, routers, security groups,
flavors, placement traits, projects and users); without, the run's own
project.
"""

import re


def _named(resources, prefix, kind, describe=None):
    out = []
    for res in resources:
        name = getattr(res, 'name', None) or ''
        if name.startswith(prefix + '-'):
            out.append('%s %s (%s)%s' % (kind, res.id, name,
                                         describe(res) if describe else ''))
    return out


def _safe(found, kind, call):
    try:
        found.extend(call())
    except Exception as e:   # one API down must not hide the others
        found.append('%s: could not be listed (%s)' % (kind, e))


def find(conn, prefix, admin, services):
    """Descriptions of every leftover of the run named ``prefix``."""
    leaks = []
    allp = {'all_projects': True} if admin else {}
    _safe(leaks, 'servers', lambda: _named(
        conn.compute.servers(**allp), prefix, 'server',
        lambda s: ' of project %s, %s' % (s.project_id, s.status)))
    if admin:
        _safe(leaks, 'flavors', lambda: _named(
            conn.compute.flavors(is_public=None), prefix, 'flavor'))
        _safe(leaks, 'projects', lambda: _named(
            conn.identity.projects(), prefix, 'project'))
        _safe(leaks, 'users', lambda: _named(
            conn.identity.users(), prefix, 'user'))
        if 'placement' in services:
            _safe(leaks, 'traits', lambda: _traits(conn, prefix))
    if 'cinder' in services:
        _safe(leaks, 'volumes', lambda: _named(
            conn.block_storage.volumes(**allp), prefix, 'volume',
            lambda v: ' %s' % v.status))
    if 'neutron' in services:
        for kind, listing in (('network', conn.network.networks),
                              ('subnet', conn.network.subnets),
                              ('router', conn.network.routers),
                              ('port', conn.network.ports),
                              ('security group',
                               conn.network.security_groups)):
            _safe(leaks, kind + 's',
                  lambda k=kind, ls=listing: _named(ls(), prefix, k))
    return leaks


def _traits(conn, prefix):
    stem = 'CUSTOM_' + re.sub('[^A-Z0-9_]', '_', prefix.upper()) + '_'
    resp = conn.placement.get('/traits?name=startswith:' + stem,
                              microversion='1.6')
    resp.raise_for_status()
    return ['placement trait %s' % t for t in resp.json().get('traits', [])]
