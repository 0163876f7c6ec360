"""The small demo's rows of Daycare's subsystems: channels, exposed endpoints, processes and system prompts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from daycare_gui.stores.daycare.demo.ids import DAY, FAKE_ROOT, HOUR, MINUTE, cuid, dumps, token

if TYPE_CHECKING:  # a type only: db_rows, which defines it, imports this module to build the model
    from daycare_gui.stores.daycare.demo.db_rows import DemoModel


def add_channels(m: DemoModel, rng) -> None:
    a, owner, sam = m.agents, m.users["owner"], m.users["sam"]
    specs = [
        ("ops", owner, a["perm_ops"], [(a["perm_ops"], owner, "ops"), (a["alex_telegram"], owner, "alex"),
                                         (a["app_deploy"], owner, "deploy")],
         [("ops", "Nightly backup finished: 14.2 GB in 11 min.", []),
          ("deploy", "@alex blog build fails: missing `sass`. Details in my session.", ["alex"]),
          ("alex", "thanks — I'll fix it tonight", []),
          ("ops", "@deploy ping me when the build is green and I'll restart the container", ["deploy"])]),
        ("family", sam, a["sam_telegram"], [(a["sam_telegram"], sam, "sam"), (a["alex_telegram"], owner, "alex"),
                                            (a["mia_whatsapp"], m.users["mia"], "mia")],
         [("sam", "Dinner tonight: chickpea skillet 🍋", []), ("mia", "can we have pasta instead", []),
          ("alex", "@mia pasta tomorrow, promise", ["mia"])]),
    ]
    for c_index, (name, user, leader, members, messages) in enumerate(specs):
        cid = "ch_" + token(rng, 10).lower()
        created = m.now - (18 - c_index) * DAY
        m.add("channels", id=cid, user_id=user, name=name, leader=leader, created_at=created, updated_at=created + DAY)
        member_list = []
        for j, (agent, member_user, username) in enumerate(members):
            joined = created + j * HOUR
            m.add("channel_members", id=len(m.rows["channel_members"]) + 1, channel_id=cid, user_id=member_user,
                  agent_id=agent, username=username, joined_at=joined)
            member_list.append({"agentId": agent, "username": username, "joinedAt": joined})
        msg_list = []
        for k, (sender, text, mentions) in enumerate(messages):
            at = m.now - (10 - c_index) * DAY + k * 17 * MINUTE
            mid = "msg_" + token(rng, 12).lower()
            m.add("channel_messages", id=mid, channel_id=cid, user_id=user, sender_username=sender, text=text,
                  mentions=dumps(mentions), created_at=at)
            msg_list.append({"id": mid, "channelName": name, "senderUsername": sender, "text": text,
                             "mentions": mentions, "createdAt": at})
        m.channels.append({"id": cid, "name": name, "leader": leader, "members": member_list,
                           "createdAt": created, "updatedAt": created + DAY, "messages": msg_list})


def add_expose(m: DemoModel, rng) -> None:
    owner = m.users["owner"]
    m.endpoints = [
        {"id": "ep_" + token(rng, 8).lower(), "target": {"type": "port", "port": 8080}, "provider": "tailscale",
         "domain": "blog-preview.tail3f9c2.ts.net", "mode": "local-network", "auth": None},
        {"id": "ep_" + token(rng, 8).lower(), "target": {"type": "port", "port": 5173}, "provider": "cloudflare",
         "domain": "recipes-demo.trycloudflare.com", "mode": "public",
         "auth": {"enabled": True, "passwordHash": "$argon2id$v=19$m=65536,t=3,p=4$ZGVtby1zYWx0$" + token(rng, 43)}},
        {"id": "ep_" + token(rng, 8).lower(), "target": {"type": "unix", "path": f"{FAKE_ROOT}/run/grafana.sock"},
         "provider": "tailscale", "domain": "grafana.tail3f9c2.ts.net", "mode": "public",
         "auth": {"enabled": True, "passwordHash": "$argon2id$v=19$m=65536,t=3,p=4$b3BzLXNhbHQ$" + token(rng, 43)}},
    ]
    for i, ep in enumerate(m.endpoints):
        ep["createdAt"] = ep["updatedAt"] = m.now - (12 - i) * DAY
        m.add("expose_endpoints", id=ep["id"], user_id=owner, target=dumps(ep["target"]), provider=ep["provider"],
              domain=ep["domain"], mode=ep["mode"], auth=dumps(ep["auth"]) if ep["auth"] else None,
              created_at=ep["createdAt"], updated_at=ep["updatedAt"])


def add_processes(m: DemoModel, rng) -> None:
    owner = m.users["owner"]
    home = f"{FAKE_ROOT}/users/{owner}/home"
    specs = [
        ("proc-blog-preview", "blog-preview", "npm run dev -- --host 127.0.0.1 --port 8080", f"{home}/developer/blog",
         {"NODE_ENV": "development"}, ["npm"], ["registry.npmjs.org"], True, None, True, "running", "running", 48213, 0),
        ("proc-photo-sync", "photo-sync", "python sync_photos.py --dest /mnt/nas/photos", f"{home}/developer/scripts",
         {"PYTHONUNBUFFERED": "1"}, ["pip"], [], False, {"type": "plugin", "id": "nas-sync"}, True, "running", "exited",
         None, 3),
        ("proc-grafana", "grafana", "grafana-server --homepath /usr/share/grafana", f"{home}/developer",
         {}, [], ["grafana.com"], True, None, False, "stopped", "stopped", None, 0),
    ]
    for i, (pid_name, name, command, cwd, env, pms, domains, local, owner_obj, keep, desired, status, pid, restarts) in enumerate(specs):
        created = m.now - (9 - i) * DAY
        started = m.now - (2 - i) * HOUR if status != "stopped" else m.now - 4 * DAY
        exited = None if status == "running" else started + 42 * MINUTE
        perms = {"workingDir": cwd, "writeDirs": [cwd], "readDirs": [], "network": bool(domains), "events": False}
        record = {
            "version": 2, "id": pid_name, "name": name, "command": command, "cwd": cwd, "home": home if i != 2 else None,
            "env": env, "packageManagers": pms, "allowedDomains": domains, "allowLocalBinding": local,
            "permissions": perms, "owner": owner_obj, "keepAlive": keep, "desiredState": desired, "status": status,
            "pid": pid, "bootTimeMs": m.now - DAY if pid else None, "restartCount": restarts,
            "restartFailureCount": 1 if status == "exited" else 0,
            "nextRestartAt": m.now + 30_000 if status == "exited" and keep else None,
            "createdAt": created, "updatedAt": exited or started, "lastStartedAt": started, "lastExitedAt": exited,
            "settingsPath": f"{FAKE_ROOT}/processes/{pid_name}/sandbox.json",
            "logPath": f"{FAKE_ROOT}/processes/{pid_name}/process.log",
        }
        m.processes.append(record)
        m.add("processes", id=pid_name, user_id=owner, name=name, command=command, cwd=cwd, home=record["home"],
              env=dumps(env), package_managers=dumps(pms), allowed_domains=dumps(domains),
              allow_local_binding=int(local), permissions=dumps(perms), owner=dumps(owner_obj) if owner_obj else None,
              keep_alive=int(keep), desired_state=desired, status=status, pid=pid, boot_time_ms=record["bootTimeMs"],
              restart_count=restarts, restart_failure_count=record["restartFailureCount"],
              next_restart_at=record["nextRestartAt"], settings_path=record["settingsPath"], log_path=record["logPath"],
              created_at=created, updated_at=record["updatedAt"], last_started_at=started, last_exited_at=exited)


def add_system_prompts(m: DemoModel, rng) -> None:
    prompts = [
        ("global", None, "system", None, "Be concise. Prefer lists and tables for anything with more than three items.", 1),
        ("global", None, "first_message", "new_user",
         "Introduce yourself in one sentence and say what you can help with.", 1),
        ("global", None, "first_message", "returning_user", "Welcome back! Mention anything left open last time.", 0),
        ("user", m.users["sam"], "system", None, "Sam is vegetarian. Never suggest meat or fish.", 1),
        ("user", m.users["mia"], "system", None,
         "Mia is 11. Explain step by step, never just give the answer to homework.", 1),
    ]
    for i, (scope, user, kind, cond, text, enabled) in enumerate(prompts):
        created = m.now - (25 - i) * DAY
        m.add("system_prompts", id=cuid(rng), scope=scope, user_id=user, kind=kind, condition=cond, prompt=text,
              enabled=enabled, created_at=created, updated_at=created + i * HOUR)
