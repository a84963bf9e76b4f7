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
"""Ansible module: external_ids of an Open vSwitch database."""

DOCUMENTATION = r'''
module: ovs_external_ids
short_description: Set the Open_vSwitch record's external_ids
description:
  - Reads the C(external_ids) of the C(Open_vSwitch) record of the
    database I(db); when any of I(external_ids) is missing or differs, runs
    C(ovs-vsctl --no-wait init), then C(ovs-vsctl --no-wait set
    Open_vSwitch . external_ids:k="v" ...) with every one of them (one
    transaction).  Other external_ids are left as they are.
  - C(--no-wait) - ovs-vswitchd need not run yet.
  - Check mode reads and writes nothing; diff mode shows the ids before
    and after.
options:
  db: {description: "The database's unix socket (a path), or an
       ovs-vsctl C(--db=) value (C(unix:PATH), C(tcp:IP:PORT)).", type: str,
       required: true}
  external_ids: {description: Key to value (text)., type: dict,
                 required: true}
  timeout: {description: ovs-vsctl's C(--timeout) (seconds)., type: int,
            default: 10}
'''

EXAMPLES = r'''
- name: ovn | chassis identity
  pending.aio.ovs_external_ids:
    db: "{{ aio_run }}/ovs-compute1/db.sock"
    external_ids:
      system-id: compute1
      ovn-encap-type: geneve
'''

RETURN = r'''
differ: {description: The keys that were missing or different., type: list,
         elements: str, returned: success}
before: {description: The value of each key before (null when missing).,
         type: dict, returned: success}
'''

try:
    from ansible.module_utils.basic import AnsibleModule
except ImportError:  # the unit tests run without Ansible
    AnsibleModule = None

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_backends)

ARGUMENT_SPEC = dict(
    db=dict(type='str', required=True),
    external_ids=dict(type='dict', required=True),
    timeout=dict(type='int', default=10))


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC,
                           supports_check_mode=True)
    p = module.params
    try:
        changed, details = aio_backends.ovs_external_ids(
            p['db'], p['external_ids'], p['timeout'],
            check=module.check_mode)
    except (aio_backends.BackendError, ValueError) as exc:
        module.fail_json(msg=str(exc))
    result = dict(changed=changed, **details)
    if module._diff:
        result['diff'] = {
            'before': {k: v for k, v in details['before'].items()
                       if v is not None},
            'after': {str(k): str(v)
                      for k, v in p['external_ids'].items()}}
    module.exit_json(**result)


if __name__ == '__main__':
    main()
