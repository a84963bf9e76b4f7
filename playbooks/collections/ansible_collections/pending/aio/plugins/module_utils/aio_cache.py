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
"""Work done once per distinct input, its result stored (stdlib only).

``recall`` and ``remember`` keep a module's own result (a dict) as JSON
under the sha256 of its input's key, which may hold a password and is
never stored itself; ``stored`` reads that result whatever its key (what
check mode shows on a miss).
"""

import hashlib
import json
import os
import tempfile


def inputs_key(version, params, names):
    """The key of a module's result: its ``names`` options and ``version``.

    ``version`` stands for the module's logic: bumping it runs the module
    again on a built cloud.  The text may hold passwords; only its sha256
    is ever stored.
    """
    return json.dumps({'version': version,
                       'options': {k: params[k] for k in names}},
                      sort_keys=True)


def _load(path):
    """The JSON wrapper stored at ``path``; None if absent or not ours."""
    try:
        with open(path) as f:
            stored = json.load(f)
    except (OSError, ValueError):
        return None
    return stored if isinstance(stored, dict) else None


def recall(path, key):
    """The result stored at ``path`` under ``key``, or None.

    None when the file is missing, is not JSON, or was stored under
    another key (compared by sha256: the key itself is never stored).
    """
    stored = _load(path)
    if stored is None or stored.get('key') != _digest(key):
        return None
    return stored.get('result')


def stored(path):
    """The result stored at ``path`` whatever its key, or None."""
    return (_load(path) or {}).get('result')


def remember(path, key, result):
    """Store ``result`` (JSON) at ``path`` under the sha256 of ``key``.

    Atomically: a temporary file of mode 0600 in the same directory
    (made if missing), then renamed over ``path``.
    """
    folder = os.path.dirname(path) or '.'
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix='.tmp-')
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, 'w') as f:
            json.dump({'key': _digest(key), 'result': result}, f)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _digest(key):
    return hashlib.sha256(key.encode()).hexdigest()
