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
"""What ``init`` reads from a cloud: services, versions, image, flavors.

Everything here is a read, through one openstacksdk connection made from a
clouds.yaml entry (TLS with the entry's ``cacert``, any auth type it
names).  Nothing here guesses a claim: the policy profile and
``use_pending_state`` are never read, only declared.
"""

import hashlib
import re

# catalogue service type -> [service_available] option
SERVICES = {'compute': 'nova', 'image': 'glance', 'network': 'neutron',
            'block-storage': 'cinder', 'volumev3': 'cinder',
            'volume': 'cinder', 'placement': 'placement',
            'object-store': 'swift'}
VOLUME_TYPES = ('block-storage', 'volumev3', 'volume')


class DiscoveryError(Exception):
    """The cloud lacks something the suite needs; the message says what."""


def _catalogue(conn):
    access = conn.session.auth.get_access(conn.session)
    return access, access.service_catalog.catalog or []


def is_admin(conn):
    """Whether the connection's user has the admin role."""
    return 'admin' in (_catalogue(conn)[0].role_names or [])


def cloud_identity(catalog, auth_url):
    """A stable id of the cloud that reveals nothing secret.

    Refstack's "cpid": the id of the identity service in the catalogue,
    the same for every user of the cloud and no project or user id.
    Without one, a digest of the identity URL.
    """
    for service in catalog:
        if service.get('type') == 'identity' and service.get('id'):
            return service['id']
    return 'sha256:' + hashlib.sha256(
        (auth_url or '').rstrip('/').encode()).hexdigest()[:32]


def _endpoint(catalog, types, region, interface='public'):
    for service in catalog:
        if service.get('type') not in types:
            continue
        endpoints = service.get('endpoints') or []
        for want_interface in (interface, 'internal', 'admin'):
            for ep in endpoints:
                ep_region = ep.get('region_id') or ep.get('region')
                if ep.get('interface') == want_interface and (
                        not region or ep_region == region):
                    return service['type'], ep['url']
    return None, None


def _version_root(url):
    """The URL of an API's version document, from an endpoint URL."""
    match = re.match(r'^(.*?)/v\d+(\.\d+)?(/.*)?$', url.rstrip('/'))
    return (match.group(1) if match else url.rstrip('/')) + '/'


def _get_json(conn, url):
    resp = conn.session.get(url, authenticated=True, raise_exc=False,
                            headers={'Accept': 'application/json'})
    if resp.status_code >= 400:
        raise DiscoveryError('GET %s answered %d' % (url, resp.status_code))
    try:
        return resp.json()
    except ValueError:
        raise DiscoveryError('GET %s answered no JSON' % url)


def _range(doc, prefix):
    """(min, max) microversion of a version document."""
    versions = doc.get('versions') or ([doc['version']]
                                       if 'version' in doc else [])
    for version in versions:
        if not str(version.get('id', '')).startswith(prefix):
            continue
        low = version.get('min_version') or ''
        high = version.get('version') or version.get('max_version') or ''
        if high:
            return low or None, high
    return None, None


def microversions(conn, catalog, region):
    """{'compute': (min, max), 'volume': ..., 'placement': ...}."""
    out = {}
    _, url = _endpoint(catalog, ('compute',), region)
    if url:
        out['compute'] = _range(_get_json(conn, url.rstrip('/') + '/'),
                                'v2.1')
    _, url = _endpoint(catalog, VOLUME_TYPES, region)
    if url:
        out['volume'] = _range(_get_json(conn, _version_root(url)), 'v3')
    _, url = _endpoint(catalog, ('placement',), region)
    if url:
        out['placement'] = _range(_get_json(conn, url.rstrip('/') + '/'),
                                  'v1')
    return out


def _pick(kind, find, candidates, key, wanted):
    """Two ids of ``kind``: the one named ``wanted``, or the two smallest.

    With one candidate only, it serves as both (``*_ref`` and
    ``*_ref_alt``).
    """
    if wanted:
        found = find(wanted)
        if found is None:
            raise DiscoveryError('%s %r not found' % (kind, wanted))
        return [found.id, found.id]
    ids = [c.id for c in sorted(candidates, key=key)[:2]]
    if not ids:
        raise DiscoveryError('no usable public %s: pass --%s NAME or '
                             '--create' % (kind, kind))
    return (ids * 2)[:2]


def _pick_images(conn, wanted):
    return _pick('image', conn.image.find_image, (
        i for i in conn.image.images(status='active')
        if i.visibility in ('public', 'community', 'shared')),
        lambda i: (i.size or 0, i.name or ''), wanted)


def _pick_flavors(conn, wanted):
    return _pick('flavor', conn.compute.find_flavor, (
        f for f in conn.compute.flavors(details=True)
        if f.is_public and not f.is_disabled and f.ram >= 64),
        lambda f: (f.ram, f.vcpus, f.disk, f.name), wanted)


def missing_compute_services(catalog, region, services, what='profile'):
    """The claimed compute service types the catalogue has no endpoint of.

    ``services``: host_status_profile_services (profile -> service type)
    or quota_counting_services (mode -> service type), ``what`` naming
    the key.
    """
    return ['%s (%s %s)' % (stype, what, name)
            for name, stype in sorted((services or {}).items())
            if _endpoint(catalog, (stype,), region) == (None, None)]


def discover(conn, image=None, flavor=None, profile_services=None,
             quota_services=None):
    """Everything init writes into tempest.conf, as a plain dict.

    ``profile_services``, ``quota_services``: the claimed
    host_status_profile_services and quota_counting_services, whose
    endpoints the catalogue must have (DiscoveryError otherwise).
    """
    access, catalog = _catalogue(conn)
    region = conn.config.get_region_name() or None
    for option, services, what in (
            ('host_status_profile_services', profile_services, 'profile'),
            ('quota_counting_services', quota_services, 'mode')):
        missing = missing_compute_services(catalog, region, services, what)
        if missing:
            raise DiscoveryError(
                'the claims name compute endpoints the catalogue has no '
                'endpoint of%s: %s %s' % (
                    ' in region %s' % region if region else '', option,
                    ', '.join(missing)))
    auth = conn.config.get_auth_args()
    found = {
        'cloud_id': cloud_identity(catalog, auth.get('auth_url')),
        'region': region,
        'auth_url': auth.get('auth_url'),
        'roles': sorted(access.role_names or []),
        'admin': 'admin' in (access.role_names or []),
        'services': sorted({SERVICES[s['type']] for s in catalog
                            if s.get('type') in SERVICES}),
    }
    if 'nova' not in found['services']:
        raise DiscoveryError('the catalogue has no compute service: this '
                             'suite tests nova')
    found['volume_type'], _ = _endpoint(catalog, VOLUME_TYPES, region)
    found['microversions'] = microversions(conn, catalog, region)
    if not found['microversions'].get('compute', (None, None))[1]:
        raise DiscoveryError('the compute API advertises no microversion')
    found['images'] = _pick_images(conn, image)
    found['flavors'] = _pick_flavors(conn, flavor)
    found['public_network_id'] = None
    if 'neutron' in found['services']:
        external = list(conn.network.networks(is_router_external=True))
        if external:
            found['public_network_id'] = sorted(n.id for n in external)[0]
        found['network_extensions'] = sorted(
            e.alias for e in conn.network.extensions())
    found['compute_hosts'] = []
    if found['admin']:
        found['compute_hosts'] = sorted(
            s.host for s in conn.compute.services(binary='nova-compute')
            if s.state == 'up' and s.status == 'enabled')
    return found
