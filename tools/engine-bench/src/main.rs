//! Per-request cost of a game module under wasmi (the referee's) and wasmtime: the same
//! module, the same requests (new, then status + legal + play until the game ends, random
//! moves from a fixed generator), timed per request; and each engine's instantiation time.
use std::time::Instant;

trait Engine {
    fn call(&mut self, req: &str) -> String;
}

struct Wasmi {
    store: wasmi::Store<()>,
    memory: wasmi::Memory,
    alloc: wasmi::TypedFunc<i32, i32>,
    free: wasmi::TypedFunc<(i32, i32), ()>,
    call: wasmi::TypedFunc<(i32, i32), i64>,
}

impl Wasmi {
    fn new(bytes: &[u8]) -> Wasmi {
        let engine = wasmi::Engine::default();
        let module = wasmi::Module::new(&engine, bytes).unwrap();
        let mut store = wasmi::Store::new(&engine, ());
        let linker = wasmi::Linker::<()>::new(&engine);
        let inst = linker.instantiate(&mut store, &module).unwrap().start(&mut store).unwrap();
        Wasmi {
            memory: inst.get_memory(&store, "memory").unwrap(),
            alloc: inst.get_typed_func(&store, "arbiter_alloc").unwrap(),
            free: inst.get_typed_func(&store, "arbiter_free").unwrap(),
            call: inst.get_typed_func(&store, "arbiter_call").unwrap(),
            store,
        }
    }
}

impl Engine for Wasmi {
    fn call(&mut self, req: &str) -> String {
        let p = self.alloc.call(&mut self.store, req.len() as i32).unwrap();
        self.memory.write(&mut self.store, p as usize, req.as_bytes()).unwrap();
        let r = self.call.call(&mut self.store, (p, req.len() as i32)).unwrap();
        self.free.call(&mut self.store, (p, req.len() as i32)).unwrap();
        let (ptr, len) = ((r >> 32) as usize, (r & 0xffff_ffff) as usize);
        let mut out = vec![0u8; len];
        self.memory.read(&self.store, ptr, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }
}

struct Wasmtime {
    store: wasmtime::Store<()>,
    memory: wasmtime::Memory,
    alloc: wasmtime::TypedFunc<i32, i32>,
    free: wasmtime::TypedFunc<(i32, i32), ()>,
    call: wasmtime::TypedFunc<(i32, i32), i64>,
}

impl Wasmtime {
    fn new(bytes: &[u8]) -> Wasmtime {
        let engine = wasmtime::Engine::default();
        let module = wasmtime::Module::new(&engine, bytes).unwrap();
        let mut store = wasmtime::Store::new(&engine, ());
        let inst = wasmtime::Instance::new(&mut store, &module, &[]).unwrap();
        Wasmtime {
            memory: inst.get_memory(&mut store, "memory").unwrap(),
            alloc: inst.get_typed_func(&mut store, "arbiter_alloc").unwrap(),
            free: inst.get_typed_func(&mut store, "arbiter_free").unwrap(),
            call: inst.get_typed_func(&mut store, "arbiter_call").unwrap(),
            store,
        }
    }
}

impl Engine for Wasmtime {
    fn call(&mut self, req: &str) -> String {
        let p = self.alloc.call(&mut self.store, req.len() as i32).unwrap();
        self.memory.write(&mut self.store, p as usize, req.as_bytes()).unwrap();
        let r = self.call.call(&mut self.store, (p, req.len() as i32)).unwrap();
        self.free.call(&mut self.store, (p, req.len() as i32)).unwrap();
        let (ptr, len) = ((r >> 32) as usize, (r & 0xffff_ffff) as usize);
        let mut out = vec![0u8; len];
        self.memory.read(&self.store, ptr, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }
}

/// Random games through the ABI; returns (requests, plies).
fn games(e: &mut dyn Engine, n: u64) -> (u64, u64) {
    let (mut requests, mut plies) = (0, 0);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for g in 0..n {
        let v: serde_json::Value =
            serde_json::from_str(&e.call(&format!(r#"{{"op":"new","config":{{}},"seed":{g}}}"#))).unwrap();
        let s = v["ok"]["state"].as_u64().unwrap();
        requests += 1;
        loop {
            let st: serde_json::Value =
                serde_json::from_str(&e.call(&format!(r#"{{"op":"status","state":{s}}}"#))).unwrap();
            requests += 1;
            if st["ok"]["to_move"].is_null() {
                break;
            }
            let legal: serde_json::Value =
                serde_json::from_str(&e.call(&format!(r#"{{"op":"legal","state":{s}}}"#))).unwrap();
            requests += 1;
            let moves = legal["ok"].as_array().unwrap();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mv = moves[(x % moves.len() as u64) as usize].as_str().unwrap();
            e.call(&format!(r#"{{"op":"play","state":{s},"move":"{mv}"}}"#));
            requests += 1;
            plies += 1;
        }
        e.call(&format!(r#"{{"op":"drop","state":{s}}}"#));
        requests += 1;
    }
    (requests, plies)
}

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap();
        let name = std::path::Path::new(&path).file_name().unwrap().to_string_lossy().into_owned();
        let t = Instant::now();
        let mut a = Wasmi::new(&bytes);
        let wasmi_start = t.elapsed();
        let t = Instant::now();
        let mut b = Wasmtime::new(&bytes);
        let wasmtime_start = t.elapsed();
        for (label, e, start) in [
            ("wasmi", &mut a as &mut dyn Engine, wasmi_start),
            ("wasmtime", &mut b as &mut dyn Engine, wasmtime_start),
        ] {
            games(e, 3); // warm up
            let t = Instant::now();
            let (requests, plies) = games(e, 30);
            let el = t.elapsed();
            println!(
                "{name:32} {label:9} load {:7.2} ms  {:6.1} us/request  {:6.1} us/ply ({plies} plies)",
                start.as_secs_f64() * 1e3,
                el.as_secs_f64() * 1e6 / requests as f64,
                el.as_secs_f64() * 1e6 / plies as f64
            );
        }
    }
}
