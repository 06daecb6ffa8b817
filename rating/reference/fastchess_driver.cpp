// Prints fastchess's own pentanomial LLR, Elo, error and LOS for the counts on each input line:
// "elo0 elo1 model LL LD DD WL WD WW" (model: normalized or logistic). Built against an
// unmodified fastchess checkout (see rating/reference/README.md).
#include <cstdio>
#include <iostream>
#include <string>
#include <matchmaking/sprt/sprt.hpp>
#include <matchmaking/stats.hpp>
#include <matchmaking/elo/elo_pentanomial.hpp>
#include <core/logger/logger.hpp>

// The logger's statics, as fastchess's logger.cpp defines them (only the SPRT constructor's trace
// reads them); linking all of fastchess is not needed for its arithmetic.
namespace fastchess {
bool Logger::compress_ = false;
Logger::Level Logger::level_ = Logger::Level::WARN;
bool Logger::strict_ = false;
std::atomic_bool Logger::should_log_ = false;
std::mutex Logger::log_mutex_;
Logger::log_file_type Logger::log_;
bool Logger::engine_coms_ = false;
}  // namespace fastchess

int main() {
    double elo0, elo1;
    std::string model;
    int ll, ld, dd, wl, wd, ww;
    while (std::cin >> elo0 >> elo1 >> model >> ll >> ld >> dd >> wl >> wd >> ww) {
        fastchess::SPRT sprt(0.05, 0.05, elo0, elo1, model, true);
        fastchess::Stats s;
        s.penta_LL = ll; s.penta_LD = ld; s.penta_DD = dd; s.penta_WL = wl; s.penta_WD = wd; s.penta_WW = ww;
        double llr = sprt.getLLR(s, true);
        std::printf("%.12f", llr);
        if (model == "normalized") {
            fastchess::elo::EloPentanomial e(s);
            std::printf(" elo=%.12f error=%.12f nelo=%.12f nerror=%.12f los=%s", e.diff(), e.error(), e.nEloDiff(), e.nEloError(), e.los().c_str());
        }
        std::printf("\n");
    }
}
