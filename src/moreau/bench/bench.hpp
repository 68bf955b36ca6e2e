#pragma once
// The benchmark room (issue 6): suite, samples, metrics, aggregates, report.
namespace moreau::bench {}
