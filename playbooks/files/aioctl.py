#!/usr/bin/env python3
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
"""``tools/aio down|status``: stop the embedded cloud, or show it.

The playbook itself uses the pending.aio modules; this command runs the
same code (the collection's module_utils/aio_supervisor.py) outside
Ansible.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', 'collections'))
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_common)
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_supervisor)


def cmd_down(sup, args):
    aio_supervisor.down(sup, args.aio_dir, args.netns, args.purge)
    print('embedded cloud stopped%s' % (' and purged' if args.purge else ''))


def cmd_status(sup, args):
    if not sup.running():
        print('supervisord is not running: the embedded cloud is down')
        sys.exit(3)
    rows, bad = aio_supervisor.status(sup, json.loads(args.checks or '{}'))
    width = max(len(r[0]) for r in rows) if rows else 10
    for name, state, health in rows:
        print('%-*s  %-9s %s' % (width, name, state, health))
    sys.exit(1 if bad else 0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest='cmd', required=True)
    for name, func in (('down', cmd_down), ('status', cmd_status)):
        p = sub.add_parser(name)
        p.add_argument('--conf', required=True)
        p.add_argument('--ctl', required=True)
        p.add_argument('--daemon', required=True)
        p.add_argument('--pidfile', required=True)
        p.set_defaults(func=func)
        if name == 'down':
            p.add_argument('--aio-dir', required=True)
            p.add_argument('--purge', action='store_true')
            p.add_argument('--netns', action='append', default=[])
        if name == 'status':
            p.add_argument('--checks', help='JSON {program: {url|port}}')
    args = parser.parse_args(argv)
    sup = aio_supervisor.Supervisor(args.conf, args.ctl, args.daemon,
                                    args.pidfile)
    try:
        args.func(sup, args)
    except aio_common.AioError as exc:
        sys.stderr.write('ERROR: %s\n' % exc)
        sys.exit(1)


if __name__ == '__main__':
    main()
