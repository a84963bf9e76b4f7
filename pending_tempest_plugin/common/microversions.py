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
"""Set a service client microversion for a few calls, then put it back.

Tempest's service clients read a module-global microversion.  The helpers
need, for instance, placement 1.6 for traits or compute 2.53 for os-services
updates, while the test itself runs at another microversion: these context
managers restore whatever was set before, unlike APIMicroversionFixture,
which resets every service to None when it is cleaned up.

The pure functions compare and pick microversions (no client state):
``at_least``, ``previous_microversion``, ``versions_to_check``; and
``api_max_microversion`` reads what a versions client advertises.
"""

import contextlib

from tempest.lib.common import api_version_request
from tempest.lib.services.compute import base_compute_client
from tempest.lib.services.placement import base_placement_client

# Traits on resource providers and the ``resources`` filter.
PLACEMENT_TRAITS = '1.6'
# os-services addressed by UUID, with status and forced_down in one PUT.
COMPUTE_SERVICES = '2.53'

# Where the attributes the tests read appear in the API.
USER_DATA_MICROVERSION = '2.3'       # OS-EXT-SRV-ATTR:user_data (admin)
HOST_STATUS_MICROVERSION = '2.16'
DESCRIPTION_MICROVERSION = '2.19'
STATUS_FILTER_400_MICROVERSION = '2.38'   # unknown status: 400, not []
TAGS_MICROVERSION = '2.52'           # tags at create
HOSTNAME_MICROVERSION = '2.90'       # hostname at create and rebuild
IMAGE_PROPERTIES_MICROVERSION = '2.98'   # image.properties of a server
TRUSTED_CERTS_MICROVERSION = '2.63'
ATTACHMENT_TAG_MICROVERSION = '2.70'  # tag in os-volume_attachments
REQUESTED_HOST_MICROVERSION = '2.74'  # host at create (admin)


@contextlib.contextmanager
def _module_global(module, name, version):
    previous = getattr(module, name)
    setattr(module, name, version)
    try:
        yield
    finally:
        setattr(module, name, previous)


def placement(version=PLACEMENT_TRAITS):
    return _module_global(base_placement_client, 'PLACEMENT_MICROVERSION',
                          version)


def compute(version=COMPUTE_SERVICES):
    return _module_global(base_compute_client, 'COMPUTE_MICROVERSION',
                          version)


def _version(version):
    return api_version_request.APIVersionRequest(version)


def at_least(version, minimum):
    """Whether microversion ``version`` is ``minimum`` or later."""
    return _version(version) >= _version(minimum)


def api_max_microversion(versions_client):
    """The maximum compute microversion the API advertises (any user)."""
    versions = versions_client.list_versions()
    found = [v.get('version') for v in versions['versions']
             if v.get('version')]
    return max(found, key=_version) if found else '2.0'


def previous_microversion(version):
    """The microversion just below ``version`` ('2.105' -> '2.104').

    None for 2.1 and below: there is no older compute microversion.
    """
    parsed = _version(version)
    if parsed.ver_major != 2 or parsed.ver_minor <= 1:
        return None
    return '2.%d' % (parsed.ver_minor - 1)


def versions_to_check(configured, api_min='2.1', api_max='latest'):
    """Distinct microversions among ``configured`` within [min, max].

    ``configured`` may contain None (unset options); the result is sorted.
    """
    found = {}
    for version in configured:
        if not version or version == 'latest':
            continue
        if not at_least(version, api_min):
            continue
        if api_max != 'latest' and not at_least(api_max, version):
            continue
        parsed = _version(version)
        found[(parsed.ver_major, parsed.ver_minor)] = version
    return [found[key] for key in sorted(found)]
