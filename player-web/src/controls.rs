//! The standalone controls and the page's events: buttons, slider, speed, keys, the file
//! picker, drag and drop, playback on a timer, `#frame=K`, resizes and the colour scheme.

use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::callback::{Interval, Timeout};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DragEvent, Element, EventTarget, HtmlInputElement, KeyboardEvent};

use crate::app::{enqueue, with_app, App, Task};
use arbiter_engine::{Seat, Viewer};

impl App {
    /// Stops playback.
    pub fn stop(&mut self) {
        if self.playing.take().is_some() {
            self.update_controls();
        }
    }

    /// Shows frame `k`, clamped to the replay.
    pub fn go(&mut self, k: i64) {
        let Some(frames) = self.loaded.as_ref().map(|l| l.frames) else {
            return;
        };
        let k = k.clamp(0, frames as i64 - 1);
        self.show(k as usize);
    }

    fn current(&self) -> i64 {
        self.loaded.as_ref().map_or(0, |l| l.k as i64)
    }

    fn last(&self) -> i64 {
        self.loaded.as_ref().map_or(0, |l| l.frames as i64 - 1)
    }

    /// Play from here (from the start at the end), or pause.
    pub fn toggle_play(&mut self) {
        if self.loaded.is_none() {
            return;
        }
        if self.playing.is_some() {
            return self.stop();
        }
        if self.current() >= self.last() {
            self.go(0);
        }
        let every = js_sys::Math::round(600.0 / self.speed).max(1.0) as u32;
        self.playing = Some(Interval::new(every, || {
            with_app(|app| {
                if app.current() >= app.last() {
                    app.stop();
                } else {
                    app.go(app.current() + 1);
                }
            });
        }));
        self.update_controls();
    }

    fn key(&mut self, e: &KeyboardEvent) {
        if self.loaded.is_none() {
            return;
        }
        let target = e.target().and_then(|t| t.dyn_into::<Element>().ok());
        let tag = target.as_ref().map(Element::tag_name).unwrap_or_default();
        let input_type = target
            .as_ref()
            .and_then(|t| t.dyn_ref::<HtmlInputElement>())
            .map(HtmlInputElement::type_);
        if (tag == "INPUT" && input_type.as_deref() != Some("range")) || tag == "SELECT" {
            return;
        }
        let key = e.key();
        // a focused button already answers space and Enter itself
        if tag == "BUTTON" && (key == " " || key == "Enter") {
            return;
        }
        match key.as_str() {
            "ArrowLeft" | "ArrowUp" => {
                self.stop();
                self.go(self.current() - 1);
            }
            "ArrowRight" | "ArrowDown" => {
                self.stop();
                self.go(self.current() + 1);
            }
            "Home" => {
                self.stop();
                self.go(0);
            }
            "End" => {
                self.stop();
                self.go(self.last());
            }
            " " => self.toggle_play(),
            _ => return,
        }
        e.prevent_default();
    }
}

/// Listens for as long as the page lives.
fn on(target: &EventTarget, event: &'static str, f: impl FnMut(&web_sys::Event) + 'static) {
    EventListener::new(target, event, f).forget();
}

/// Listens, free to call `preventDefault`.
fn on_active(target: &EventTarget, event: &'static str, f: impl FnMut(&web_sys::Event) + 'static) {
    EventListener::new_with_options(
        target,
        event,
        EventListenerOptions::enable_prevent_default(),
        f,
    )
    .forget();
}

/// A button that stops playback and seeks to the frame `to` computes.
fn seek_button(target: &EventTarget, to: fn(&App) -> i64) {
    on(target, "click", move |_| {
        with_app(|app| {
            app.stop();
            let k = to(app);
            app.go(k);
        });
    });
}

/// Wires every control and page event. Called once, when the player starts.
pub fn bind(app: &App) {
    let d = &app.dom;
    seek_button(&d.b_first, |_| 0);
    seek_button(&d.b_prev, |a| a.current() - 1);
    seek_button(&d.b_next, |a| a.current() + 1);
    seek_button(&d.b_last, App::last);
    seek_button(&d.b_end, App::last);
    on(&d.board, "mousemove", |e| {
        if let Some(e) = e.dyn_ref::<web_sys::MouseEvent>() {
            let (x, y) = (f64::from(e.offset_x()), f64::from(e.offset_y()));
            with_app(|app| app.hover(x, y));
        }
    });
    on(&d.b_play, "click", |_| {
        with_app(App::toggle_play);
    });
    let slider = d.slider.clone();
    on(&d.slider, "input", move |_| {
        let k = slider.value().parse::<i64>().unwrap_or(0);
        with_app(|app| {
            app.stop();
            app.go(k);
        });
    });
    let speed = d.speed.clone();
    on(&d.speed, "change", move |_| {
        let s = js_sys::parse_float(&speed.value());
        let s = if s > 0.0 { s } else { 1.0 };
        with_app(|app| {
            app.speed = s;
            if app.playing.is_some() {
                app.stop();
                app.toggle_play();
            }
        });
    });
    let file = d.file.clone();
    on(&d.b_open, "click", move |_| file.click());
    let file = d.file.clone();
    on(&d.file, "change", move |_| {
        if let Some(f) = file.files().and_then(|l| l.get(0)) {
            enqueue(Task::OpenFile(f));
        }
    });
    let viewas = d.viewas.clone();
    on(&d.viewas, "change", move |_| {
        // `all`, or a seat's number: the module's view for that viewer.
        let viewer = match viewas
            .value()
            .parse::<u8>()
            .ok()
            .and_then(|s| Seat::try_from(s).ok())
        {
            Some(seat) => Viewer::Seat(seat),
            None => Viewer::All,
        };
        with_app(|app| app.view_as(viewer));
    });
    let numbers = d.numbers.clone();
    on(&d.numbers, "change", move |_| {
        let checked = numbers.checked();
        with_app(|app| {
            app.numbers = checked;
            app.draw();
        });
    });
    on(&d.moves, "click", |e| {
        let row = e
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|t| t.closest(".row").ok().flatten());
        let k = row
            .and_then(|r| r.get_attribute("data-k"))
            .and_then(|k| k.parse::<i64>().ok());
        if let Some(k) = k {
            with_app(|app| {
                app.stop();
                app.go(k);
            });
        }
    });
    let moves = d.moves.clone();
    on(&d.moves, "scroll", move |_| {
        let top = f64::from(moves.scroll_top());
        with_app(|app| {
            app.list_top = top * app.list_scale();
            app.render_rows();
        });
    });
    on_active(&d.document, "keydown", |e| {
        if let Some(e) = e.dyn_ref::<KeyboardEvent>() {
            with_app(|app| app.key(e));
        }
    });
    if app.standalone {
        let body = d.body.clone();
        on_active(&d.document, "dragover", move |e| {
            e.prevent_default();
            let _ = body.class_list().add_1("dragging");
        });
        let body = d.body.clone();
        on(&d.document, "dragleave", move |e| {
            let leaving = e
                .dyn_ref::<DragEvent>()
                .is_some_and(|e| e.related_target().is_none());
            if leaving {
                let _ = body.class_list().remove_1("dragging");
            }
        });
        let body = d.body.clone();
        on_active(&d.document, "drop", move |e| {
            e.prevent_default();
            let _ = body.class_list().remove_1("dragging");
            let file = e
                .dyn_ref::<DragEvent>()
                .and_then(DragEvent::data_transfer)
                .and_then(|t| t.files())
                .and_then(|l| l.get(0));
            if let Some(f) = file {
                enqueue(Task::OpenFile(f));
            }
        });
    }
    on(&d.window, "resize", |_| {
        with_app(|app| {
            app.resize_timer = Some(Timeout::new(50, || {
                with_app(|app| {
                    app.draw();
                    app.report_height();
                });
            }));
        });
    });
    if let Ok(Some(dark)) = d.window.match_media("(prefers-color-scheme: dark)") {
        on(&dark, "change", |_| {
            with_app(|app| {
                app.palette = None;
                app.draw();
            });
        });
    }
    let observer = Closure::<dyn FnMut(JsValue)>::new(|_| {
        with_app(App::report_height);
    });
    if let Ok(ro) = web_sys::ResizeObserver::new(observer.as_ref().unchecked_ref()) {
        ro.observe(&d.root);
    }
    observer.forget();
    on(&d.window, "hashchange", |_| {
        with_app(|app| {
            if app.loaded.is_some() {
                let k = app.hash_frame();
                app.go(i64::try_from(k).unwrap_or(i64::MAX));
            }
        });
    });
}
