//! A game module in the wasmi interpreter, bounded in fuel (instructions) per call and in
//! memory. Everything the module returns is checked before use: it is external input.

use std::fmt;

use serde_json::Value;
use sha2::{Digest, Sha256};
use wasmi::core::TrapCode;
use wasmi::TypedFunc;
use wasmi::{Config, Engine, Linker, Memory, Module, Store, StoreLimits, StoreLimitsBuilder};

use crate::{Kit, KitError};

/// What a module may use.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Fuel (about one unit per wasm instruction) for one call.
    pub fuel_per_call: u64,
    /// The module's linear memory at most, in bytes.
    pub memory_bytes: usize,
    /// The longest answer accepted, in bytes.
    pub max_answer_bytes: usize,
}

impl Default for Bounds {
    /// Generous for any board game's rules (a legal-move list of Amazons' 2,176 moves costs
    /// about a million), small enough that a runaway module stops within a second or two.
    fn default() -> Self {
        Bounds {
            fuel_per_call: 2_000_000_000,
            memory_bytes: 256 << 20,
            max_answer_bytes: 16 << 20,
        }
    }
}

type Alloc = TypedFunc<u32, u32>;
type Free = TypedFunc<(u32, u32), ()>;
type Call = TypedFunc<(u32, u32), u64>;

/// A module compiled (parsed and validated) once, from which games start instances.
#[derive(Clone, Debug)]
pub struct Compiled {
    module: Module,
    sha256: String,
}

impl Compiled {
    /// Compiles `bytes`, refusing a module that imports anything. `label` names it in errors.
    pub fn new(bytes: &[u8], label: &str) -> Result<Compiled, KitError> {
        let fail = |what: String| KitError::Module {
            module: label.to_string(),
            what,
        };
        if !bytes.starts_with(b"\0asm") {
            let start: String = bytes
                .iter()
                .take(8)
                .map(|&b| match b {
                    0x20..=0x7e => char::from(b),
                    _ => '.',
                })
                .collect();
            return Err(fail(format!(
                "is not a wasm module: it starts with {start:?}, a wasm module with \"\\0asm\" \
                 (give the .wasm that cargo build --target wasm32-unknown-unknown wrote)"
            )));
        }
        let mut config = Config::default();
        config.consume_fuel(true);
        let engine = Engine::new(&config);
        let module = Module::new(&engine, bytes).map_err(|e| {
            // The interpreter's messages may span lines (byte lists): one line for a person.
            let words: Vec<String> = e.to_string().split_whitespace().map(String::from).collect();
            fail(format!("is not a valid wasm module: {}", words.join(" ")))
        })?;
        if let Some(import) = module.imports().next() {
            return Err(fail(format!(
                "imports {}::{}: a game module must import nothing (core wasm, no WASI)",
                import.module(),
                import.name()
            )));
        }
        Ok(Compiled {
            module,
            sha256: sha256_hex(bytes),
        })
    }

    pub fn sha256(&self) -> &str {
        &self.sha256
    }
}

/// A loaded module, ready for requests.
pub struct WasmKit {
    label: String,
    sha256: String,
    bounds: Bounds,
    store: Store<StoreLimits>,
    memory: Memory,
    alloc: Alloc,
    free: Free,
    call: Call,
    /// Set once the module failed: its state can no longer be trusted.
    broken: Option<String>,
}

impl fmt::Debug for WasmKit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WasmKit({})", self.label)
    }
}

/// Hex SHA-256 of a module's bytes, as replays and artefact stores name it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl WasmKit {
    /// Compiles and starts `bytes`. `label` names the module in errors (its file name).
    pub fn load(bytes: &[u8], label: &str, bounds: Bounds) -> Result<WasmKit, KitError> {
        let compiled = Compiled::new(bytes, label)?;
        WasmKit::start(&compiled, label, bounds)
    }

    /// Starts an instance of a module compiled before (a host compiles each module once, not
    /// once a game).
    pub fn start(compiled: &Compiled, label: &str, bounds: Bounds) -> Result<WasmKit, KitError> {
        let fail = |what: String| KitError::Module {
            module: label.to_string(),
            what,
        };
        let (engine, module) = (compiled.module.engine(), &compiled.module);
        let limits = StoreLimitsBuilder::new()
            .memory_size(bounds.memory_bytes)
            .memories(1)
            // A clear "past the limit" rather than an allocator abort inside the module.
            .trap_on_grow_failure(true)
            .build();
        let mut store = Store::new(engine, limits);
        store.limiter(|l| l);
        set_fuel(&mut store, bounds.fuel_per_call);
        let linker = Linker::<StoreLimits>::new(engine);
        let instance = linker
            .instantiate(&mut store, module)
            .and_then(|pre| pre.start(&mut store))
            .map_err(|e| fail(format!("failed to start: {}", trap_words(&e))))?;
        let memory = instance
            .get_memory(&store, "memory")
            .ok_or_else(|| fail("exports no memory named \"memory\"".into()))?;
        let func = |name: &str| fail(format!("lacks the export {name} (or its type is wrong)"));
        let version = instance
            .get_typed_func::<(), u32>(&store, "arbiter_abi_version")
            .map_err(|_| func("arbiter_abi_version() -> i32"))?;
        let alloc = instance
            .get_typed_func(&store, "arbiter_alloc")
            .map_err(|_| func("arbiter_alloc(i32) -> i32"))?;
        let free = instance
            .get_typed_func(&store, "arbiter_free")
            .map_err(|_| func("arbiter_free(i32, i32)"))?;
        let call = instance
            .get_typed_func(&store, "arbiter_call")
            .map_err(|_| func("arbiter_call(i32, i32) -> i64"))?;
        let v = version.call(&mut store, ()).map_err(|e| {
            fail(format!(
                "trapped in arbiter_abi_version: {}",
                trap_words(&e)
            ))
        })?;
        // Version 1 modules (two seats, one mover) still load: the host reads their answers
        // into version 2's shapes (`Info`, `Status`, `Outcome`).
        if !(1..=arbiter_game::abi::ABI_VERSION).contains(&v) {
            return Err(fail(format!(
                "speaks ABI version {v}; this arbiter speaks versions 1 to {}",
                arbiter_game::abi::ABI_VERSION
            )));
        }
        Ok(WasmKit {
            label: label.to_string(),
            sha256: compiled.sha256.clone(),
            bounds,
            store,
            memory,
            alloc,
            free,
            call,
            broken: None,
        })
    }

    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    fn fail(&mut self, what: String) -> KitError {
        self.broken = Some(what.clone());
        KitError::Module {
            module: self.label.clone(),
            what,
        }
    }

    /// One raw call: request bytes in, answer bytes out.
    fn raw_call(&mut self, request: &[u8]) -> Result<Vec<u8>, KitError> {
        if let Some(what) = &self.broken {
            return Err(KitError::Module {
                module: self.label.clone(),
                what: format!("failed earlier ({what}) and is not called again"),
            });
        }
        let len =
            u32::try_from(request.len()).map_err(|_| self.fail("request too large".into()))?;
        set_fuel(&mut self.store, self.bounds.fuel_per_call);
        let ptr = match self.alloc.call(&mut self.store, len) {
            Ok(0) => return Err(self.fail("arbiter_alloc returned 0 (out of memory)".into())),
            Ok(p) => p,
            Err(e) => {
                return Err(self.fail(format!("trapped in arbiter_alloc: {}", trap_words(&e))))
            }
        };
        if self
            .memory
            .write(&mut self.store, ptr as usize, request)
            .is_err()
        {
            return Err(self.fail(format!("arbiter_alloc gave {ptr}, outside its memory")));
        }
        let packed = match self.call.call(&mut self.store, (ptr, len)) {
            Ok(p) => p,
            Err(e) => return Err(self.fail(format!("trapped in arbiter_call: {}", trap_words(&e)))),
        };
        let (out_ptr, out_len) = ((packed >> 32) as usize, (packed & 0xffff_ffff) as usize);
        if out_len > self.bounds.max_answer_bytes {
            return Err(self.fail(format!("answered {out_len} bytes, more than the limit")));
        }
        let mut answer = vec![0; out_len];
        if self.memory.read(&self.store, out_ptr, &mut answer).is_err() {
            return Err(self.fail(format!(
                "answer at {out_ptr}+{out_len} lies outside its memory"
            )));
        }
        if let Err(e) = self.free.call(&mut self.store, (ptr, len)) {
            return Err(self.fail(format!("trapped in arbiter_free: {}", trap_words(&e))));
        }
        Ok(answer)
    }
}

fn set_fuel(store: &mut Store<StoreLimits>, fuel: u64) {
    // Fails only when fuel metering is off, which `load` turns on.
    let _ = store.set_fuel(fuel);
}

/// A trap in words a game author understands.
fn trap_words(e: &wasmi::Error) -> String {
    match e.as_trap_code() {
        Some(TrapCode::OutOfFuel) => {
            "ran out of fuel (an endless loop, or far too much work for one call)".into()
        }
        Some(TrapCode::UnreachableCodeReached) => "trapped: unreachable (a Rust panic?)".into(),
        Some(TrapCode::GrowthOperationLimited) => "tried to grow its memory past the limit".into(),
        Some(code) => format!("trapped: {code}"),
        None => e.to_string(),
    }
}

impl Kit for WasmKit {
    fn label(&self) -> &str {
        &self.label
    }

    fn call(&mut self, request: &Value) -> Result<Value, KitError> {
        let bytes = serde_json::to_vec(request).map_err(|e| KitError::Host(e.to_string()))?;
        let answer = self.raw_call(&bytes).map_err(|e| match e {
            // Which request broke it (the op, the move): where its author looks first.
            KitError::Module { module, what } if !what.starts_with("failed earlier") => {
                let asked: String = String::from_utf8_lossy(&bytes).chars().take(160).collect();
                let what = format!("{what}, asked {asked}");
                self.broken = Some(what.clone());
                KitError::Module { module, what }
            }
            other => other,
        })?;
        serde_json::from_slice(&answer).map_err(|e| {
            let start = String::from_utf8_lossy(&answer[..answer.len().min(80)]).into_owned();
            self.fail(format!(
                "answered something that is not JSON ({e}): {start:?}"
            ))
        })
    }
}
