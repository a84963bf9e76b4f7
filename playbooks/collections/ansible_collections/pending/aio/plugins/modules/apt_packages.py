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
"""Ansible module: install the Debian packages the cloud needs."""

DOCUMENTATION = r'''
module: apt_packages
short_description: Install missing Debian packages, naming any apt lacks
description:
  - Installs (apt-get update, then install --no-install-recommends) the
    packages of I(packages) that dpkg does not list as installed.
  - When apt fails, the error names the package(s) no archive provides,
    with the description given for each, and the tail of I(log).
options:
  packages:
    description: Package name to what it is for (named in errors).
    type: dict
    required: true
  log:
    description: File that receives apt's output.
    type: path
    required: true
  marker:
    description: >-
      Written once every package is installed; while it names the same
      packages nothing is checked (a warm run costs no dpkg query).
    type: path
'''

RETURN = r'''
installed:
  description: Packages installed (in check mode, that would be).
  type: list
  returned: always
'''

from ansible.module_utils.basic import AnsibleModule  # noqa: E402

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_common)
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_apt)


def main():
    module = AnsibleModule(
        argument_spec=dict(packages=dict(type='dict', required=True),
                           log=dict(type='path', required=True),
                           marker=dict(type='path')),
        supports_check_mode=True)
    try:
        done = aio_apt.apt_install(module.params['packages'],
                                   module.params['log'],
                                   marker=module.params['marker'],
                                   check=module.check_mode)
    except aio_common.AioError as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=bool(done), installed=done)


if __name__ == '__main__':
    main()
