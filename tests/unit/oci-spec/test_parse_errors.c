/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Invalid configs: each must fail with an exact JSON-path message. */
#include "helpers.h"

TEST(malformed_json_reports_line_and_column)
{
	parse_fails(
		"{\n  \"ociVersion\": \"1.2.0\",\n  \"process\": {\n    \"args\" [\"sh\"]\n  }\n}",
		"config.json: parse error at line 4, column 12: object key and value must be "
		"separated by a colon (':')");
	parse_fails("{\"ociVersion\": \"1.2.0\",}", "config.json: parse error at line 1, column "
						    "24: invalid object key (must be a string)");
	parse_fails("{\"ociVersion\": \"1.2.0\"} x",
		    "config.json: parse error at line 1, column 25: trailing garbage");
	parse_fails("{\"ociVersion\": tru}",
		    "config.json: parse error at line 1, column 19: invalid string in json text");
}

TEST(empty_and_truncated_input)
{
	parse_fails("", "config.json: parse error at line 1, column 1: premature EOF");
	parse_fails("   \n", "config.json: parse error at line 2, column 1: premature EOF");
	parse_fails("{\"ociVersion\": \"1.2",
		    "config.json: parse error at line 1, column 20: premature EOF");
}

TEST(comments_are_not_json)
{
	parse_fails("{/* c */ \"ociVersion\": \"1.2.0\"}",
		    "config.json: parse error at line 1, column 2: probable comment found in input "
		    "text, comments are not enabled");
}

TEST(invalid_utf8_rejected)
{
	parse_fails(MINIMAL(", \"hostname\": \"\xff\""),
		    "config.json: parse error at line 1, column 38: invalid bytes in UTF8 string");
}

TEST(top_level_must_be_object)
{
	parse_fails("[]", "config.json: expected an object, got array");
	parse_fails("\"x\"", "config.json: expected an object, got string");
}

TEST(missing_required_fields)
{
	parse_fails("{}", "ociVersion: required field is missing");
	parse_fails("{\"ociVersion\": null}", "ociVersion: required field is missing");
	parse_fails(MINIMAL(", \"root\": {\"readonly\": true}"),
		    "root.path: required field is missing");
	parse_fails(MINIMAL(", \"process\": {\"args\": [\"sh\"]}"),
		    "process.cwd: required field is missing");
	parse_fails(MINIMAL(", \"process\": {\"cwd\": \"/\"}"),
		    "process.args: must be a non-empty array");
	parse_fails(WITH_PROCESS(", \"args\": []"), "process.args: must be a non-empty array");
	parse_fails(WITH_PROCESS(", \"user\": {\"uid\": 0}"),
		    "process.user.gid: required field is missing");
	parse_fails(MINIMAL(", \"mounts\": [{\"type\": \"proc\"}]"),
		    "mounts[0].destination: required field is missing");
	parse_fails(MINIMAL(", \"hooks\": {\"poststop\": [{\"path\": \"/a\"}, {\"args\": []}]}"),
		    "hooks.poststop[1].path: required field is missing");
	parse_fails(WITH_LINUX("\"namespaces\": [{\"path\": \"/proc/1/ns/net\"}]"),
		    "linux.namespaces[0].type: required field is missing");
	parse_fails(WITH_LINUX("\"uidMappings\": [{\"containerID\": 0, \"size\": 1}]"),
		    "linux.uidMappings[0].hostID: required field is missing");
	parse_fails(
		WITH_LINUX("\"devices\": [{\"type\": \"c\", \"path\": \"/dev/x\", \"major\": 1}]"),
		"linux.devices[0].minor: required field is missing");
	parse_fails(WITH_LINUX("\"resources\": {\"devices\": [{\"access\": \"rwm\"}]}"),
		    "linux.resources.devices[0].allow: required field is missing");
	parse_fails(WITH_LINUX("\"seccomp\": {\"syscalls\": []}"),
		    "linux.seccomp.defaultAction: required field is missing");
	parse_fails(WITH_LINUX("\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": "
			       "[{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": "
			       "[{\"index\": 0, \"value\": 1}]}]}"),
		    "linux.seccomp.syscalls[0].args[0].op: required field is missing");
}

TEST(wrong_types)
{
	parse_fails("{\"ociVersion\": 1}", "ociVersion: expected a string, got number");
	parse_fails(MINIMAL(", \"mounts\": [{\"destination\": \"/a\"}, {\"destination\": \"/b\"}, "
			    "{\"destination\": \"/c\"}, {\"destination\": 4}]"),
		    "mounts[3].destination: expected a string, got number");
	parse_fails(MINIMAL(", \"mounts\": {}"), "mounts: expected an array, got object");
	parse_fails(MINIMAL(", \"mounts\": [\"/proc\"]"),
		    "mounts[0]: expected an object, got string");
	parse_fails(WITH_PROCESS(", \"terminal\": \"yes\""),
		    "process.terminal: expected a boolean, got string");
	parse_fails(WITH_PROCESS(", \"env\": [\"A=1\", 2]"),
		    "process.env[1]: expected a string, got number");
	parse_fails(WITH_PROCESS(", \"user\": {\"uid\": \"0\", \"gid\": 0}"),
		    "process.user.uid: expected an integer, got string");
	parse_fails(WITH_PROCESS(", \"user\": {\"uid\": 1.5, \"gid\": 0}"),
		    "process.user.uid: expected an integer, got 1.5");
	parse_fails(WITH_PROCESS(", \"user\": {\"uid\": 1e3, \"gid\": 0}"),
		    "process.user.uid: expected an integer, got 1e3");
	parse_fails(
		WITH_PROCESS(", \"user\": {\"uid\": 0, \"gid\": 0, \"additionalGids\": [1, true]}"),
		"process.user.additionalGids[1]: expected an integer, got boolean");
	parse_fails(MINIMAL(", \"linux\": []"), "linux: expected an object, got array");
	parse_fails(WITH_LINUX("\"sysctl\": {\"net.ipv4.ip_forward\": 1}"),
		    "linux.sysctl[\"net.ipv4.ip_forward\"]: expected a string, got number");
	parse_fails(MINIMAL(", \"annotations\": {\"plain_key\": [\"v\"]}"),
		    "annotations.plain_key: expected a string, got array");
	parse_fails(WITH_LINUX("\"resources\": {\"memory\": {\"disableOOMKiller\": 0}}"),
		    "linux.resources.memory.disableOOMKiller: expected a boolean, got number");
	parse_fails(WITH_LINUX("\"netDevices\": {\"eth0\": \"ctr0\"}"),
		    "linux.netDevices.eth0: expected an object, got string");
}

TEST(unknown_enum_values)
{
	parse_fails(WITH_LINUX("\"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"ipc\"}, "
			       "{\"type\": \"foo\"}]"),
		    "linux.namespaces[2].type: unknown namespace \"foo\"");
	parse_fails(WITH_LINUX("\"seccomp\": {\"defaultAction\": \"SCMP_ACT_BOOM\"}"),
		    "linux.seccomp.defaultAction: unknown seccomp action \"SCMP_ACT_BOOM\"");
	parse_fails(WITH_LINUX("\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": "
			       "[{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": "
			       "[{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_ABOUT\"}]}]}"),
		    "linux.seccomp.syscalls[0].args[0].op: unknown seccomp operator "
		    "\"SCMP_CMP_ABOUT\"");
	parse_fails(
		WITH_LINUX("\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\", "
			   "\"architectures\": [\"SCMP_ARCH_X86_64\", \"SCMP_ARCH_Z80\"]}"),
		"linux.seccomp.architectures[1]: unknown seccomp architecture \"SCMP_ARCH_Z80\"");
	parse_fails(
		WITH_LINUX(
			"\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\", \"flags\": [\"X\"]}"),
		"linux.seccomp.flags[0]: unknown seccomp flag \"X\"");
	parse_fails(WITH_LINUX("\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": "
			       "[{\"names\": [], \"action\": \"SCMP_ACT_ERRNO\"}]}"),
		    "linux.seccomp.syscalls[0].names: must be a non-empty array");
	parse_fails(
		WITH_PROCESS(
			", \"rlimits\": [{\"type\": \"RLIMIT_FOO\", \"hard\": 1, \"soft\": 1}]"),
		"process.rlimits[0].type: unknown rlimit \"RLIMIT_FOO\"");
	parse_fails(WITH_LINUX("\"rootfsPropagation\": \"sideways\""),
		    "linux.rootfsPropagation: unknown propagation mode \"sideways\"");
	parse_fails(WITH_LINUX("\"devices\": [{\"type\": \"x\", \"path\": \"/dev/x\"}]"),
		    "linux.devices[0].type: unknown device type \"x\" (expected c, b, u or p)");
	parse_fails(WITH_LINUX("\"personality\": {\"domain\": \"BSD\"}"),
		    "linux.personality.domain: unknown personality domain \"BSD\"");
	parse_fails(WITH_LINUX("\"timeOffsets\": {\"realtime\": {\"secs\": 1}}"),
		    "linux.timeOffsets.realtime: unknown clock (expected monotonic or boottime)");
	parse_fails(WITH_PROCESS(", \"scheduler\": {\"policy\": \"SCHED_FAST\"}"),
		    "process.scheduler.policy: unknown scheduler policy \"SCHED_FAST\"");
	parse_fails(WITH_PROCESS(", \"ioPriority\": {\"class\": \"IOPRIO_CLASS_NONE\"}"),
		    "process.ioPriority.class: unknown I/O priority class \"IOPRIO_CLASS_NONE\"");
}

TEST(duplicate_namespaces_rejected)
{
	parse_fails(
		WITH_LINUX("\"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"network\"}, "
			   "{\"type\": \"pid\", \"path\": \"/proc/1/ns/pid\"}]"),
		"linux.namespaces[2].type: duplicate namespace \"pid\" (also in namespaces[0])");
}

TEST(duplicate_rlimits_rejected)
{
	parse_fails(
		WITH_PROCESS(
			", \"rlimits\": [{\"type\": \"RLIMIT_NOFILE\", \"hard\": 2, \"soft\": 1}, "
			"{\"type\": \"RLIMIT_NOFILE\", \"hard\": 3, \"soft\": 1}]"),
		"process.rlimits[1].type: duplicate rlimit \"RLIMIT_NOFILE\" (also in rlimits[0])");
}

TEST(relative_paths_rejected)
{
	parse_fails(
		MINIMAL(", \"mounts\": [{\"destination\": \"/proc\"}, {\"destination\": \"\"}]"),
		"mounts[1].destination: must not be empty");
	parse_fails(WITH_PROCESS(", \"cwd\": \"home\""),
		    "process.cwd: must be an absolute path, got \"home\"");
	parse_fails(MINIMAL(", \"hooks\": {\"prestart\": [{\"path\": \"hook\"}]}"),
		    "hooks.prestart[0].path: must be an absolute path, got \"hook\"");
	parse_fails(WITH_LINUX("\"namespaces\": [{\"type\": \"network\", \"path\": \"netns\"}]"),
		    "linux.namespaces[0].path: must be an absolute path, got \"netns\"");
	parse_fails(WITH_LINUX("\"devices\": [{\"type\": \"p\", \"path\": \"fifo\"}]"),
		    "linux.devices[0].path: must be an absolute path, got \"fifo\"");
	parse_fails(MINIMAL(", \"root\": {\"path\": \"\"}"), "root.path: must not be empty");
}

TEST(numbers_out_of_range)
{
	parse_fails(WITH_PROCESS(", \"user\": {\"uid\": 4294967296, \"gid\": 0}"),
		    "process.user.uid: 4294967296 is out of range (0..4294967295)");
	parse_fails(WITH_PROCESS(", \"user\": {\"uid\": -1, \"gid\": 0}"),
		    "process.user.uid: -1 is out of range (0..4294967295)");
	parse_fails(WITH_PROCESS(", \"oomScoreAdj\": 1001"),
		    "process.oomScoreAdj: 1001 is out of range (-1000..1000)");
	parse_fails(WITH_PROCESS(", \"rlimits\": [{\"type\": \"RLIMIT_CORE\", \"hard\": "
				 "18446744073709551616, \"soft\": 0}]"),
		    "process.rlimits[0].hard: 18446744073709551616 is out of range "
		    "(0..18446744073709551615)");
	parse_fails(WITH_LINUX("\"resources\": {\"memory\": {\"limit\": 9223372036854775808}}"),
		    "linux.resources.memory.limit: 9223372036854775808 is out of range "
		    "(-9223372036854775808..9223372036854775807)");
	parse_fails(WITH_LINUX("\"resources\": {\"blockIO\": {\"weight\": 65536}}"),
		    "linux.resources.blockIO.weight: 65536 is out of range (0..65535)");
	parse_fails(MINIMAL(", \"hooks\": {\"poststop\": [{\"path\": \"/x\", \"timeout\": 0}]}"),
		    "hooks.poststop[0].timeout: must be greater than 0, got 0");
	parse_fails(
		WITH_LINUX("\"uidMappings\": [{\"containerID\": 0, \"hostID\": 0, \"size\": 0}]"),
		"linux.uidMappings[0].size: must be greater than 0");
	parse_fails(WITH_LINUX("\"gidMappings\": [{\"containerID\": 4294967295, \"hostID\": 0, "
			       "\"size\": 2}]"),
		    "linux.gidMappings[0]: containerID 4294967295 + size 2 is beyond 4294967296");
	parse_fails(
		WITH_LINUX(
			"\"uidMappings\": [{\"containerID\": 0, \"hostID\": 1000, \"size\": 10}, "
			"{\"containerID\": 5, \"hostID\": 5000, \"size\": 10}]"),
		"linux.uidMappings[1]: containerID range overlaps uidMappings[0]");
	parse_fails(
		WITH_LINUX(
			"\"uidMappings\": [{\"containerID\": 0, \"hostID\": 1000, \"size\": 10}, "
			"{\"containerID\": 10, \"hostID\": 1009, \"size\": 10}]"),
		"linux.uidMappings[1]: hostID range overlaps uidMappings[0]");
	parse_fails(
		WITH_PROCESS(
			", \"rlimits\": [{\"type\": \"RLIMIT_NOFILE\", \"hard\": 1, \"soft\": 2}]"),
		"process.rlimits[0].soft: 2 is greater than hard limit 1");
	parse_fails(WITH_LINUX("\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": "
			       "[{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": "
			       "[{\"index\": 6, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]}]}"),
		    "linux.seccomp.syscalls[0].args[0].index: 6 is out of range (0..5)");
	parse_fails(WITH_PROCESS(", \"user\": {\"uid\": "
				 "123456789012345678901234567890123456789012, \"gid\": 0}"),
		    "process.user.uid: 12345678901234567890123456789012... is out of range "
		    "(0..4294967295)");
}

TEST(odd_keys_are_quoted_in_paths)
{
	parse_fails(MINIMAL(", \"annotations\": {\"org.example/a\\\"b\": 1}"),
		    "annotations[\"org.example/a\\\"b\"]: expected a string, got number");
	parse_fails(MINIMAL(", \"annotations\": {\"\": \"v\"}"),
		    "annotations: keys must not be empty");
}

TEST(invalid_env_and_names)
{
	parse_fails(WITH_PROCESS(", \"env\": [\"PATH=/bin\", \"NOVALUE\"]"),
		    "process.env[1]: invalid environment variable \"NOVALUE\": missing '='");
	parse_fails(WITH_PROCESS(", \"env\": [\"=x\"]"),
		    "process.env[0]: invalid environment variable \"=x\": name is empty");
	parse_fails(
		WITH_LINUX("\"netDevices\": {\"eth0\": {\"name\": \"a-very-long-device-name\"}}"),
		"linux.netDevices.eth0.name: network device name \"a-very-long-device-name\" must "
		"be 1 to 15 bytes");
	parse_fails(WITH_LINUX("\"netDevices\": {\"eth/0\": {}}"),
		    "linux.netDevices[\"eth/0\"]: invalid network device name \"eth/0\"");
	parse_fails(MINIMAL(", \"hostname\": \""
			    "0123456789012345678901234567890123456789012345678901234567890123456789"
			    "\""),
		    "hostname: string longer than 64 bytes");
}
