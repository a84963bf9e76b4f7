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
"""One openstacksdk connection for the project's own tools.

An HTTP/1.1 server may close an idle keep-alive connection at the moment a
client sends on it; the client then sees ``RemoteDisconnected`` or
``ConnectionResetError`` for a request the server never read.  Such a
request is safe to send again only when it is idempotent, so:

* a failure to *connect* (nothing was sent) is retried for every method;
* a connection dropped before any response (urllib3's read errors:
  ``RemoteDisconnected``, a reset, a read timeout) is retried for GET, HEAD,
  OPTIONS, PUT and DELETE only: a POST or PATCH that may have reached the
  server raises at once;
* an HTTP response is never retried, whatever its status: a 5xx is the
  cloud's answer and the caller must see it.

At most ``RETRIES`` new tries, 0.1 s, 0.2 s, 0.4 s apart: a service that is
really down still fails within a second.

The embedded cloud's APIs answer ``Connection: close`` (group_vars,
``aio_api_keepalive``), so this guard matters on other clouds and whenever
that choice is changed; the smoke checks, the leftover check and the functional
stage's own calls (:mod:`pending_aio.cloud.fixtures`) use it.
"""

from keystoneauth1 import session as ks_session
from urllib3.util import retry

RETRIES = 3
IDEMPOTENT = frozenset(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])


def retry_policy():
    """The urllib3 policy described in the module docstring."""
    return retry.Retry(
        total=RETRIES, connect=RETRIES, read=RETRIES,
        status=0, other=0, redirect=0,
        allowed_methods=IDEMPOTENT, backoff_factor=0.1,
        raise_on_status=False, raise_on_redirect=False,
        respect_retry_after_header=False)


def harden(requests_session):
    """Mount the retrying adapter on a requests.Session; returns it."""
    adapter = ks_session.TCPKeepAliveAdapter(max_retries=retry_policy())
    requests_session.mount('http://', adapter)
    requests_session.mount('https://', adapter)
    return requests_session


def connect(cloud, **options):
    """openstack.connect(cloud=..., **options), :func:`harden`-ed.

    ``options``: openstacksdk's configuration overrides (e.g.
    ``compute_service_type``).
    """
    import openstack   # only the tools venv has it, not the unit tests

    conn = openstack.connect(cloud=cloud, **options)
    harden(conn.session.session)
    return conn
