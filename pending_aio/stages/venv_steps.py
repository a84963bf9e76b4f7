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
"""The checks the stages run with the embedded cloud's tools venv.

``python -m pending_aio stage ACTION ARGS...``:

``leg CLAIMS_YAML``
    the conformance leg of a claims file (conformance.py):
    ``reference|stock``-``pending-on|pending-off``-PROFILE;
``prefix WORKSPACE_JSON``
    the resource name prefix of a pending-conformance workspace;
``appcred-secret CLOUDS_YAML``
    the application credential secret of ``member-appcred-tls``;
``runner-pass OUT ACCOUNTS_YAML VERSION``
    the passing subset's artifacts (runner_stage.py): the report's
    header (the plugin's version VERSION) and rows, the JUnit XML,
    pre-provisioned credentials, and no account password in any artifact;
``runner-member REPORT_JSON``
    the member-only run: HS-16 passes, HS-01 needs admin, no admin row
    passes;
``progress-log LOG``
    the output of an ``up`` (playbooks/callback_plugins/aio_progress.py):
    every line starts with the elapsed time, which never jumps by more
    than 30 seconds from one line to the next;
``apt-packages-with-missing DEFAULTS``
    the ``-e`` JSON of aio_apt_packages (the aio_packages role's defaults
    file) plus a package no archive has
    (bad_input.py).

A failed check prints ``functional-runner: ...`` and exits 1.
"""

import json
import os
import re
import sys
import xml.etree.ElementTree as ET

import yaml

from pending_aio import checks


def _load_yaml(path):
    with open(path) as f:
        return yaml.safe_load(f)


def _load_json(path):
    with open(path) as f:
        return json.load(f)


def need(ok, message):
    if not ok:
        sys.exit('functional-runner: %s' % message)


def leg(claims_path):
    claims = _load_yaml(claims_path)
    nova = 'reference' if claims.get('pending_state_microversion') \
        else 'stock'
    pending = 'pending-on' if claims.get('pending_state_enabled') \
        else 'pending-off'
    name = '%s-%s-%s' % (nova, pending,
                         claims.get('host_status_policy_profile'))
    quota = claims.get('quota_counting')
    if quota and quota != 'db':
        name += '-' + quota
    print(name)


def prefix(workspace_json):
    print(_load_json(workspace_json)['prefix'])


def appcred_secret(clouds_yaml):
    clouds = _load_yaml(clouds_yaml)['clouds']
    print(clouds['member-appcred-tls']['auth'][
        'application_credential_secret'])


def runner_pass(out, accounts_yaml, version):
    ET.parse(os.path.join(out, 'results.xml'))
    report = _load_json(os.path.join(out, 'report.json'))
    header = report['header']
    for key in ('plugin_version', 'tempest_version', 'catalogue_sha256',
                'cloud_id', 'region', 'compute_microversions', 'claims',
                'started', 'ended'):
        need(header.get(key), 'header lacks %s' % key)
    need(header['plugin_version'] == version, 'the plugin version in the '
         'header is %s, not %s' % (header['plugin_version'], version))
    rows = {r['id']: r for r in report['requirements']}
    need(rows['HS-01']['outcome'] == 'pass', rows['HS-01'])
    # The claims name the admin_or_owner profile's endpoint
    # (host_status_profile_services): its row applies, decided or not by
    # the subset, never "not applicable" (the lying claims below drop it).
    need(rows['HS-15']['outcome'] in ('pass', 'not run'), rows['HS-15'])
    need(header['credentials'] == 'pre-provisioned', header['credentials'])
    with open(os.path.join(out, 'tempest.conf')) as f:
        need('test_accounts_file = ' in f.read(),
             'tempest.conf has no accounts file')
    secrets = [a['password'] for a in _load_yaml(accounts_yaml)
               if len(a['password']) >= 8]
    need(secrets, 'no generated account password to look for')
    holding = checks.files_holding(out, secrets)
    need(not holding, 'a password is in %s' % ', '.join(holding))
    print('ok: report header (plugin %s), rows, JUnit XML, no account '
          'password in any artifact' % version)


PROGRESS_LINE = re.compile(r'^\[ *(\d+):(\d\d)\] ')
# The longest silence a person watching `up` sees (issue 40).
PROGRESS_GAP = 30


def progress_log(log):
    with open(log, errors='replace') as f:
        lines = [line.rstrip('\n') for line in f if line.strip()]
    need(lines, '%s is empty' % log)
    last = 0
    for number, line in enumerate(lines, 1):
        found = PROGRESS_LINE.match(line)
        need(found, '%s:%d shows no elapsed time: %s' % (log, number, line))
        now = int(found.group(1)) * 60 + int(found.group(2))
        need(now - last <= PROGRESS_GAP, '%s:%d comes %d s after the line '
             'before it (at most %d): %s' % (log, number, now - last,
                                             PROGRESS_GAP, line))
        last = now
    print('ok: %s: %d lines, each with the elapsed time, none more than '
          '%d s after the one before (%d:%02d in all)'
          % (log, len(lines), PROGRESS_GAP, last // 60, last % 60))


def runner_member(report_json):
    report = _load_json(report_json)
    rows = {r['id']: r for r in report['requirements']}
    need(rows['HS-16']['outcome'] == 'pass', rows['HS-16'])
    need(rows['HS-01']['outcome'] == 'needs admin', rows['HS-01'])
    passed_admin = [r['id'] for r in rows.values()
                    if r['admin'] and r['outcome'] == 'pass']
    need(not passed_admin, 'admin rows read pass: %s' % passed_admin)
    needs = sum(1 for r in rows.values() if r['outcome'] == 'needs admin')
    print('ok: member-only run: HS-16 pass, %d rows need admin, no admin '
          'row passes' % needs)


def apt_packages_with_missing(group_vars):
    packages = _load_yaml(group_vars)['aio_apt_packages']
    packages['aio-no-such-package'] = 'a package no Debian archive has'
    print(json.dumps({'aio_apt_packages': packages}))


ACTIONS = {
    'leg': (leg, 1),
    'prefix': (prefix, 1),
    'appcred-secret': (appcred_secret, 1),
    'runner-pass': (runner_pass, 3),
    'runner-member': (runner_member, 1),
    'progress-log': (progress_log, 1),
    'apt-packages-with-missing': (apt_packages_with_missing, 1),
}


def main(argv):
    if not argv or argv[0] not in ACTIONS \
            or len(argv) - 1 != ACTIONS[argv[0]][1]:
        sys.exit('usage: python -m pending_aio stage %s ARGS...'
                 % '|'.join(ACTIONS))
    ACTIONS[argv[0]][0](*argv[1:])
    return 0
