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
"""The conformance report: a verdict, then one line per requirement.

Reads the subunit v2 stream of a Tempest run (``stestr last --subunit`` in
the Tempest workspace) and the run's ``tempest.conf`` (its
``[nova_conformance]`` claims and whether it has admin credentials), and
prints the verdict (``verdict.py``: why it passes or fails) followed by, per
requirement, its level (MUST, SHOULD, MAY), its outcome (pass, fail, skip,
not run, needs admin, needs disruption, not applicable, known divergence,
planned, unobservable) and what decided it::

    stestr last --subunit |
        pending-conformance-report --tempest-conf etc/tempest.conf
    pending-conformance-report --subunit run.subunit --json report.json \
        --tempest-conf etc/tempest.conf --mode certify --leaks leaks.txt

Exit status: 0 when the verdict passes, 1 when it fails (a requirement or a
class fixture failed, nothing was verified, or in certify mode an applicable
MUST was not verified or a resource leaked), 2 for bad input.  A known
divergence (a flagged requirement whose test saw exactly the documented
divergence) is not a failure, and is never printed as a pass.
"""

import argparse
import configparser
import hashlib
import json
import sys

import yaml

from pending_tempest_plugin.conformance import catalogue
from pending_tempest_plugin.conformance import claims as claims_mod
from pending_tempest_plugin.conformance import suite
from pending_tempest_plugin.conformance import verdict as verdict_mod
from pending_tempest_plugin.runner import workspace


def render(rows, totals, verdict=None):
    """The report as text; a merged report's rows name their leg."""
    lines = list(verdict['lines']) + [''] if verdict else []
    legs = any(row.get('leg') for row in rows)
    width = max([len(row.get('leg') or '') for row in rows] + [3])

    def line(ident, level, outcome, leg, detail):
        if legs:
            return '%-8s %-6s %-16s %-*s %s' % (ident, level, outcome, width,
                                                leg, detail)
        return '%-8s %-6s %-16s %s' % (ident, level, outcome, detail)

    lines.append(line('ID', 'LEVEL', 'OUTCOME', 'LEG', 'DETAIL'))
    for row in rows:
        detail = row['detail']
        if row.get('messages'):
            detail = '; '.join(row['messages'] + ([detail] if detail
                                                  else []))
        if row.get('request_ids'):
            detail += ' [%s]' % ' '.join(row['request_ids'])
        lines.append(line(row['id'], row['level'], row['outcome'],
                          row.get('leg') or '', detail))
    lines.append('')
    lines.append('requirements: ' + ', '.join(
        '%d %s' % (totals[k], k) for k in sorted(totals)))
    return '\n'.join(lines)


class BadInput(Exception):
    """A file the report reads is missing or malformed."""


_BOOL = {'true': True, 'false': False, '1': True, '0': False, 'yes': True,
         'no': False}
# Claims: the [nova_conformance] options that say what the cloud is (the
# others say how to drive it); their defaults are the options' own.
CLAIM_OPTIONS = ('pending_state_enabled', 'pending_state_microversion',
                 'cell0_rebuild_microversion', 'host_status_policy_profile',
                 'host_status_profile_services',
                 'disruptive_tests', 'disruptive_hosts', 'disruptive_cells',
                 'capacity_hosts',
                 'compute_host_cells', 'novalidhost_trigger', 'quota_counting',
                 'quota_counting_services', 'quota_recheck',
                 'legacy_notifications', 'build_failure_metadata')


def claim_defaults():
    """The claims of a tempest.conf that sets no [nova_conformance]."""
    defaults = claims_mod.defaults()
    return {key: defaults[key] for key in CLAIM_OPTIONS}


def context_from_tempest_conf(path):
    """(claims, admin) of a tempest.conf: what the run was told.

    ``admin`` is True when the run can get admin credentials: dynamic
    credentials with ``[auth] admin_username``, or an accounts file with an
    account of role ``admin`` (or ``types: [admin]``).
    """
    claims, parser = claims_of_tempest_conf(path)
    admin = dynamic_admin(parser)
    if admin is None:
        admin = _accounts_have_admin(parser.get(
            'auth', 'test_accounts_file', fallback='').strip())
    return claims, admin


def dynamic_admin(parser):
    """Whether a parsed tempest.conf's dynamic credentials have admin.

    None when it uses pre-provisioned accounts (their file decides).
    """
    dynamic = _BOOL.get(parser.get('auth', 'use_dynamic_credentials',
                                   fallback='true').strip().lower(), True)
    if not dynamic:
        return None
    return bool(parser.get('auth', 'admin_username', fallback='').strip())


def claims_of_tempest_conf(path):
    """(claims, parsed file) of a tempest.conf; BadInput if unreadable."""
    parser = configparser.RawConfigParser(strict=False)
    try:
        with open(path) as f:
            parser.read_file(f)
    except (OSError, configparser.Error) as e:
        raise BadInput('cannot read tempest.conf %s: %s' % (path, e))
    try:
        typed = claims_mod.of_conf(parser, path)
    except ValueError as e:
        raise BadInput(str(e))
    return {key: typed[key] for key in CLAIM_OPTIONS}, parser


def _accounts_have_admin(path):
    if not path:
        return False
    try:
        entries = workspace.read_accounts(path)
    except workspace.WorkspaceError as e:
        raise BadInput('the accounts file %s: %s' % (path, e))
    return any(workspace.is_admin_account(e) for e in entries)


def catalogue_identity(path=catalogue.CATALOGUE_PATH):
    """(version, sha256) of the requirement catalogue file."""
    with open(path, 'rb') as f:
        data = f.read()
    version = (yaml.safe_load(data) or {}).get('version')
    return version, hashlib.sha256(data).hexdigest()


def report(records, claims, admin, mode=verdict_mod.EXPLORE, leaks=(),
           qualifiers=(), cat_path=catalogue.CATALOGUE_PATH, declared=None,
           versions=None, origin=None):
    """The report as a dict: header, verdict, scopes, requirements, totals.

    The header names the suite that decided it (versions, the catalogue's
    and the installed suite's sha256); the verdict's first line the scopes
    (a development build's certify verdict says it cannot certify).
    ``cat_path``, ``declared`` and ``versions``: another catalogue, its
    tests and versions (a bundle's, when its verdict is derived again).
    ``origin``: the attempt of each test's record (combine_attempts); the
    rows a rerun decided carry ``attempt`` and the first line says so.
    """
    cat = catalogue.load(cat_path)
    if declared is None:
        declared, _ = catalogue.scan_tests()
    result = verdict_mod.evaluate(cat, declared, records, claims, mode=mode,
                                  admin=admin, leaks=list(leaks))
    version, sha = catalogue_identity(cat_path)
    if versions is None:
        versions = dict(suite.versions(),
                        suite_sha256=suite.digest(suite.installed_sums()))
    development = suite.is_development(versions.get('plugin_version'))
    qualifiers = tuple(qualifiers)
    if origin:
        # The rows a rerun decided, and which attempt.
        reruns = {}
        for row in result['rows']:
            number = max([origin.get(u, 1) for u in row['tests']] or [1])
            if number > 1:
                row['attempt'] = number
                reruns.setdefault(number, []).append(row['id'])
        qualifiers += tuple('on rerun %d: %d row(s) decided by it' % (
            number, len(ids)) for number, ids in sorted(reruns.items()))
    if development and mode == verdict_mod.CERTIFY:
        qualifiers = (verdict_mod.DEVELOPMENT,) + qualifiers
    result['verdict']['lines'][0] = verdict_mod.scope_line(
        result['scopes'], mode, qualifiers)
    header = {'catalogue_version': version, 'catalogue_sha256': sha,
              'mode': mode, 'admin': admin, 'claims': claims,
              'development_build': development}
    header.update(versions)
    return {'header': header, 'verdict': result['verdict'],
            'scopes': result['scopes'], 'requirements': result['rows'],
            'totals': result['totals'], 'exit_code': result['exit_code']}


def _read_leaks(path):
    try:
        with open(path) as f:
            return [line.strip() for line in f if line.strip()]
    except OSError as e:
        raise BadInput('cannot read the leaks file %s: %s' % (path, e))


def main(argv=None):
    parser = argparse.ArgumentParser(
        description='Verdict and per-requirement report of a Tempest run.')
    parser.add_argument('--subunit', default='-',
                        help='subunit v2 file of the run (default: stdin)')
    parser.add_argument('--json', help='also write the report as JSON here')
    parser.add_argument('--tempest-conf',
                        help='tempest.conf of the run: its [nova_conformance]'
                             ' claims and whether it has admin credentials '
                             '(default: nova_conformance defaults, admin)')
    parser.add_argument('--mode', choices=verdict_mod.MODES,
                        default=verdict_mod.EXPLORE,
                        help='certify: every applicable MUST must be '
                             'verified and nothing may leak (default: '
                             'explore)')
    parser.add_argument('--leaks',
                        help='file with one leaked resource per line')
    args = parser.parse_args(argv)
    try:
        if args.tempest_conf:
            claims, admin = context_from_tempest_conf(args.tempest_conf)
        else:
            claims, admin = claim_defaults(), True
        leaks = _read_leaks(args.leaks) if args.leaks else []
        if args.subunit == '-':
            records = verdict_mod.records_from_subunit(sys.stdin.buffer)
        else:
            try:
                with open(args.subunit, 'rb') as f:
                    records = verdict_mod.records_from_subunit(f)
            except OSError as e:
                raise BadInput('cannot read the subunit stream %s: %s'
                               % (args.subunit, e))
    except BadInput as e:
        print('pending-conformance-report: %s' % e, file=sys.stderr)
        return 2
    result = report(records, claims, admin, mode=args.mode, leaks=leaks)
    print(render(result['requirements'], result['totals'],
                 result['verdict']))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(result, f, indent=2)
    return result['exit_code']


if __name__ == '__main__':
    sys.exit(main())
