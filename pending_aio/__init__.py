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
"""The embedded reference cloud's control code: ``python -m pending_aio``.

One command drives the embedded cloud and everything the project runs
against it (``python -m pending_aio --help`` lists the subcommands).  This
package lives beside the plugin, not in it: ``setup.cfg`` ships
``pending_tempest_plugin`` only, so a cloud that installs the plugin never
gets the embedded cloud's tools.  It runs from a checkout, with the
checkout on ``sys.path`` (``tools/aio`` and ``sh.pending_aio`` set
``PYTHONPATH``): with the tox venv's python for ``up``, ``down``,
``status``, ``rss``, ``constraints``, ``zuul-check`` and the stages
(``functional``, ``conformance``, ``bench-aio``, ...: standard library
and PyYAML only), with the embedded cloud's tools venv
(``$AIO_DIR/venvs/tools/bin/python``: openstacksdk, python-subunit) for
the rest.  Importing the package imports nothing beyond the standard
library; each subcommand imports what it needs.

Its rooms, each with a docstring of its own: ``cloud/`` (the embedded
cloud: up, down, and the checks of a running cloud), ``stages/`` (what
the ``tox`` environments and CI run against it), ``bench/`` (the
benchmarks), ``mutants/`` (mutation testing with the reference nova),
``zuul/`` (the Zuul configuration checked); shared by them: ``cli`` (the
subcommands), ``sh`` (commands run as a stage runs them), ``checks``
(one-line checks) and ``topology`` (the cloud's planes, profiles and
microversions, read from the playbook's group variables).  Their tests
are in ``tests/``.
"""

import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def aio_dir():
    """The embedded cloud's state directory: $AIO_DIR, else .aio/."""
    return os.environ.get('AIO_DIR') or os.path.join(REPO, '.aio')


def python_path(pythonpath, checkout):
    """PYTHONPATH with the checkout first (``checkout``) or without it.

    tools/ puts the checkout on PYTHONPATH for ``python -m pending_aio``
    only; the programs it starts (ansible-playbook, Tempest) get the path
    the caller gave.  None when nothing is left.
    """
    rest = [p for p in (pythonpath or '').split(os.pathsep)
            if p and os.path.abspath(p) != REPO]
    return os.pathsep.join(([REPO] if checkout else []) + rest) or None


def data_file(name):
    """A data file of the package (pending_aio/data/NAME)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data',
                        name)
