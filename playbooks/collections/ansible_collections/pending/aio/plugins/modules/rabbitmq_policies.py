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
"""Ansible module: RabbitMQ queue policies of the default vhost."""

DOCUMENTATION = r'''
module: rabbitmq_policies
short_description: RabbitMQ queue policies of the default vhost
description:
  - Sets each of I(policies) that is missing or differs (its pattern,
    definition or priority), applied to queues of the default vhost;
    changed only when it set one.  Other policies are left as they are.
  - rabbitmqctl starts an Erlang VM, which takes a while - this runs once
    per distinct list, remembered in I(cache) (its sha256); while it is
    unchanged nothing runs and the task is not changed.
  - Check mode, when the input is not remembered, lists the policies and
    changes nothing.
options:
  policies:
    description: The policies.
    type: list
    elements: dict
    required: true
    suboptions:
      name: {description: Its name., type: str, required: true}
      pattern: {description: "Regular expression of the queue names (not
                starting with C(-))", type: str, required: true}
      definition: {description: Its definition (JSON object)., type: dict,
                   required: true}
      priority: {description: Its priority., type: int, default: 0}
  cache: {description: "Where the sha256 of the input is remembered
          (mode 0600), in RabbitMQ's data directory.", type: path,
          required: true}
  env: {description: "rabbitmqctl's environment: C(RABBITMQ_CONF_ENV_FILE),
        C(ERL_EPMD_PORT).", type: dict, default: {}}
'''

EXAMPLES = r'''
- name: rabbitmq | policies bounding the notification queues
  pending.aio.rabbitmq_policies:
    cache: "{{ aio_data }}/rabbitmq/aio-policies"
    policies:
      - name: versioned-notifications
        pattern: '^versioned_notifications\.'
        definition: {max-length: 1000, message-ttl: 3600000}
    env:
      RABBITMQ_CONF_ENV_FILE: "{{ aio_etc }}/rabbitmq/rabbitmq-env.conf"
      ERL_EPMD_PORT: "{{ aio_ports.epmd }}"
'''

RETURN = r'''
cached: {description: The input was remembered - nothing ran., type: bool,
         returned: success}
set: {description: The policies set (in check mode - to set)., type: list,
      elements: str, returned: success}
'''

try:
    from ansible.module_utils.basic import AnsibleModule
except ImportError:  # the unit tests run without Ansible
    AnsibleModule = None

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_backends)

ARGUMENT_SPEC = dict(
    policies=dict(
        type='list', elements='dict', required=True,
        options=dict(name=dict(type='str', required=True),
                     pattern=dict(type='str', required=True),
                     definition=dict(type='dict', required=True),
                     priority=dict(type='int', default=0))),
    cache=dict(type='path', required=True),
    env=dict(type='dict', default={}))


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC,
                           supports_check_mode=True)
    p = module.params
    try:
        changed, details, cached = aio_backends.rabbitmq_policies(
            p['cache'], p['policies'], env=p['env'],
            check=module.check_mode)
    except (aio_backends.BackendError, OSError, ValueError) as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=changed, cached=cached, **details)


if __name__ == '__main__':
    main()
